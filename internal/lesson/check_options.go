package lesson

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
)

// CheckOptions tells the checker what the scenario's log does not: the
// stock key, the keys of its clients' locks, Redlock's quorum and which
// nodes are replicas.
func CheckOptions(sc *scenario.Scenario) check.Options {
	opt := check.Options{StockKey: StockKey, Quorum: map[string]int{}, ReplicaOf: map[string]string{},
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
		algo, ok := lock.Lookup(c.Algorithm)
		if !ok || algo.Unguarded {
			continue
		}
		opts, err := algo.Decode(c.Params)
		if err != nil {
			continue
		}
		res := Resource(opts)
		if !slices.Contains(opt.Locks, res) {
			opt.Locks = append(opt.Locks, res)
		}
		repairs := false
		if o, ok := opts.(*lock.SetNXThenExpireOptions); ok {
			repairs = o.Repair
		}
		recovers := c.Algorithm == "setnx-getset-timestamp" || repairs ||
			c.Algorithm == "mysql-unique-key" && sc.SQL != nil && sc.SQL.SweepEvery > 0
		if recovers && !slices.Contains(opt.Recovers, res) {
			opt.Recovers = append(opt.Recovers, res)
		}
		if _, ok := opts.(*lock.RedsyncOptions); ok {
			opt.Quorum[res] = max(opt.Quorum[res], masters/2+1) // redsync's quorum: len(pools)/2 + 1
		}
		if o, ok := opts.(*lock.RedlockOptions); ok {
			q := masters/2 + 1
			if o.Quorum > 0 {
				q = min(o.Quorum, masters)
			}
			opt.Quorum[res] = max(opt.Quorum[res], q)
		}
	}
	return opt
}
