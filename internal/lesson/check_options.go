package lesson

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/scenario"
)

// CheckOptions tells the checker what the scenario's log does not: the
// stock key, the keys of its clients' locks, Redlock's quorum, which nodes
// are replicas, which clients draw no fencing token and who frees a stuck
// lock key by the algorithm's own recovery.
func CheckOptions(sc *scenario.Scenario) check.Options {
	opt := check.Options{StockKey: StockKey, Quorum: map[string]int{}, ClientQuorum: map[string]map[string]int{}, ReplicaOf: map[string]string{},
		FencedStorage: sc.Storage != nil && sc.Storage.Fencing}
	masters := 0
	for _, n := range sc.Nodes {
		if n.ReplicaOf != "" {
			opt.ReplicaOf[n.Name] = n.ReplicaOf
		} else {
			masters++
		}
	}
	if len(sc.Nodes) == 0 {
		masters = 1
	}
	for _, c := range sc.Clients {
		algo, ok := sc.Lookup(c.Algorithm)
		if !ok || algo.Unguarded {
			continue
		}
		if !algo.Fencing && !slices.Contains(opt.Tokenless, c.Name) {
			opt.Tokenless = append(opt.Tokenless, c.Name)
		}
		opts, err := algo.Decode(c.Params)
		if err != nil {
			continue
		}
		res := Resource(opts)
		if !slices.Contains(opt.Locks, res) {
			opt.Locks = append(opt.Locks, res)
		}
		if algo.Recovery != nil {
			if frees := algo.Recovery(opts); frees != nil {
				opt.Recoverers = append(opt.Recoverers, check.Recoverer{Lock: res, Client: c.Name, Frees: frees, Lease: algo.LeaseInValue})
			}
		}
		if algo.SQL && sc.SQL != nil && sc.SQL.SweepEvery > 0 &&
			!slices.ContainsFunc(opt.Recoverers, func(r check.Recoverer) bool { return r.Lock == res && r.Client == "" }) {
			// the database's cleanup job sweeps every old row
			opt.Recoverers = append(opt.Recoverers, check.Recoverer{Lock: res})
		}
		q := 1
		if algo.Quorum != nil {
			q = algo.Quorum(opts, masters)
			opt.Quorum[res] = max(opt.Quorum[res], q)
		}
		if opt.ClientQuorum[c.Name] == nil {
			opt.ClientQuorum[c.Name] = map[string]int{}
		}
		opt.ClientQuorum[c.Name][res] = q
	}
	return opt
}
