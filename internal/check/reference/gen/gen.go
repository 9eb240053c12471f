// Package gen makes random scenarios for the differential test of the two
// checkers: random algorithms of the lock catalog (each with the nodes and
// services it needs), 2–5 clients on one or two locks — sometimes two
// algorithms on one key —, random TTLs, work, retries, requests, threads,
// re-entry and kept locks, and faults of every kind of the menu at times or
// on events, with the shapes that once fooled a checker made likely: a
// fencing token counter lost (its node restarted empty or failed over), and
// a master failing over under clients that deduct the stock. Everything
// comes from one explicit seed: the same seed makes the same scenarios.
package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// FaultKinds are the faults of the menu (sim.FaultKinds, in its order),
// each of which the generator uses: a kind with no case of its own in
// randomFault is made from its row of sim.Actions (fromRow).
var FaultKinds = func() []string {
	out := make([]string, len(sim.FaultKinds))
	for i, k := range sim.FaultKinds {
		out[i] = string(k)
	}
	return out
}()

// Generated is one generated scenario: its YAML text and, when the
// validator accepts it, the parsed scenario.
type Generated struct {
	YAML     []byte
	Scenario *scenario.Scenario // nil when refused
	Err      error              // why the validator refused it
}

// Generate makes the scenario number i of the corpus seeded by seed, and
// parses it back through the validator.
func Generate(seed uint64, i int) Generated {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	sc := Random(r, fmt.Sprintf("gen-%d", i))
	text, err := scenario.MarshalScenario(sc)
	if err != nil {
		return Generated{Err: err}
	}
	f, err := scenario.Parse(fmt.Sprintf("gen-%d.yaml", i), text)
	if err != nil {
		return Generated{YAML: text, Err: err}
	}
	return Generated{YAML: text, Scenario: &f.Scenarios[0]}
}

func d(x time.Duration) scenario.Duration   { return scenario.Duration(x) }
func dp(x time.Duration) *scenario.Duration { v := d(x); return &v }
func ms(n int) time.Duration                { return time.Duration(n) * time.Millisecond }

// pick returns a random element.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// group is one lock the scenario's clients share: an algorithm on a key.
type group struct {
	algo   *lock.Info
	params map[string]any
}

// Random makes one random scenario with the given id.
func Random(r *rand.Rand, id string) *scenario.Scenario {
	sc := &scenario.Scenario{ID: id, Title: textOf("generated " + id), Expect: []string{sim.VerdictSafe},
		Seed: r.Int64N(1000)}
	sc.Horizon = d(time.Duration(pick(r, 3, 5, 8, 12, 15, 20)) * time.Second)
	horizon := sc.Horizon.D()

	groups := []group{newGroup(r, "lock")}
	switch r.IntN(6) {
	case 0, 1:
		groups = append(groups, newGroup(r, pick(r, "lock:a", "lock:b", "lock")))
	case 2:
		// another algorithm on the same key: mixed recoveries, owners
		// one algorithm cannot read
		groups = append(groups, newGroup(r, "lock"))
	}
	var redlock, failover, fencing bool
	for _, g := range groups {
		redlock = redlock || g.algo.Quorum != nil
		failover = failover || g.algo.Replica
		fencing = fencing || g.algo.Fencing
	}

	masters, nodes := randomNodes(r, sc, redlock, failover, fencing)
	sc.Data = map[string]string{"stock": fmt.Sprint(pick(r, 1, 2, 3, 10))}

	names := randomClients(r, sc, groups, fencing)

	// Faults: zero to four, of every kind.
	nf := r.IntN(5)
	for range nf {
		sc.Faults = append(sc.Faults, randomFault(r, sc, names, nodes, masters, horizon)...)
	}
	likelyFaults(r, sc, masters, fencing, horizon)
	return sc
}

// randomNodes gives sc one master, or Redlock's masters; a replica of the
// first master when replica-failover needs it (and sometimes otherwise).
// It returns the masters and every node's name.
func randomNodes(r *rand.Rand, sc *scenario.Scenario, redlock, failover, fencing bool) (masters, nodes []string) {
	if redlock {
		n := pick(r, 3, 5, 5, 7)
		for i := 1; i <= n; i++ {
			sc.Nodes = append(sc.Nodes, scenario.Node{Name: fmt.Sprintf("r%d", i)})
			masters = append(masters, fmt.Sprintf("r%d", i))
		}
	} else {
		sc.Nodes = append(sc.Nodes, scenario.Node{Name: "redis"})
		masters = []string{"redis"}
	}
	// (Never beside Redlock's masters: a replica would count as one more
	// master, and the scenario checker refuses it.)
	if (failover || fencing && r.IntN(3) == 0 || r.IntN(6) == 0) && !redlock {
		sc.Nodes = append(sc.Nodes, scenario.Node{Name: "replica", ReplicaOf: masters[0],
			Lag: d(ms(pick(r, 0, 50, 200, 500, 2000)))})
	}
	if r.IntN(8) == 0 {
		sc.Nodes[r.IntN(len(sc.Nodes))].Offset = d(ms(pick(r, -500, 300, 2000)))
	}
	nodes = make([]string, len(sc.Nodes))
	for i, n := range sc.Nodes {
		nodes[i] = n.Name
	}
	if r.IntN(4) == 0 {
		sc.Network = scenario.Network{Latency: d(ms(pick(r, 1, 2, 5))), Jitter: d(ms(pick(r, 0, 1, 3))),
			Timeout: d(ms(pick(r, 50, 200, 1000)))}
	}
	return masters, nodes
}

// randomClients gives sc two to five clients of groups' locks, and the
// storage when one writes. It returns their names.
func randomClients(r *rand.Rand, sc *scenario.Scenario, groups []group, fencing bool) []string {
	nc := 2 + r.IntN(4)
	names := []string{"A", "B", "C", "D", "E"}[:nc]
	write := fencing || r.IntN(8) == 0
	for i, name := range names {
		g := groups[r.IntN(len(groups))]
		c := scenario.Client{Name: name, Algorithm: g.algo.ID, Params: g.params}
		if r.IntN(4) == 0 { // a client of its own flavour
			c.Params = tweak(r, g.algo, g.params)
		}
		if i > 0 {
			c.Start = d(ms(pick(r, 0, 10, 50, 100, 500, 1500, 3000)))
		}
		c.Work = d(ms(pick(r, 0, 50, 200, 1000, 2500, 4000)))
		if r.IntN(3) == 0 {
			c.Requests = 1 + r.IntN(3)
		}
		if r.IntN(6) == 0 {
			c.Threads = 1 + r.IntN(3)
			c.Requests = max(c.Requests, 2)
		}
		// Nested and kept locks where there is a lock to take again or
		// keep (the scenario checker refuses them elsewhere).
		optimistic := g.algo.NewOptimistic != nil // WATCH: no lock to re-enter, keep or write under
		lockable := !g.algo.Unguarded && !optimistic
		if r.IntN(6) == 0 && lockable {
			c.Reentry = 2
		}
		if r.IntN(10) == 0 && lockable {
			c.KeepLock = true
		}
		switch {
		case g.algo.Fencing || write && !optimistic && r.IntN(2) == 0:
			c.Task = "write"
		case !optimistic && r.IntN(8) == 0:
			c.Task = "none"
		}
		if r.IntN(10) == 0 {
			c.Skew = d(ms(pick(r, -1000, 500, 3000)))
		}
		sc.Clients = append(sc.Clients, c)
	}
	if slices.ContainsFunc(sc.Clients, func(c scenario.Client) bool { return c.Task == "write" }) {
		sc.Storage = &scenario.Storage{Fencing: fencing && r.IntN(3) > 0}
	}
	return names
}

// likelyFaults makes shapes likely: the token counter's node loses it
// (restarts empty, or fails over before replicating it), and a master with
// a replica fails over under the clients.
func likelyFaults(r *rand.Rand, sc *scenario.Scenario, masters []string, fencing bool, horizon time.Duration) {
	replica := ""
	for _, nd := range sc.Nodes {
		if nd.ReplicaOf == masters[0] {
			replica = nd.Name
		}
	}
	at := dp(time.Duration(r.Int64N(int64(min(horizon*3/4, 3*time.Second))))) // while the clients are busy
	switch {
	case fencing && r.IntN(2) == 0 && replica != "" && r.IntN(2) == 0:
		sc.Faults = append(sc.Faults, scenario.Fault{When: scenario.When{At: at}, Do: string(sim.FaultFailover), Node: masters[0]})
	case fencing && r.IntN(2) == 0:
		sc.Faults = append(sc.Faults, scenario.Fault{When: scenario.When{At: at}, Do: string(sim.FaultNodeCrash), Node: masters[0], For: d(ms(pick(r, 100, 300, 1000)))})
	case replica != "" && r.IntN(2) == 0:
		sc.Faults = append(sc.Faults, scenario.Fault{When: scenario.When{At: at}, Do: string(sim.FaultFailover), Node: masters[0]})
	}
}

func textOf(s string) sim.Text { return sim.Text{En: s, Zh: s} }

// newGroup picks an algorithm and its parameters for a lock key.
func newGroup(r *rand.Rand, key string) group {
	a := lock.Algorithms[r.IntN(len(lock.Algorithms))]
	params := map[string]any{}
	if _, ok := a.Param("key"); ok && key != "lock" {
		params["key"] = key
	}
	return group{algo: a, params: tweakInto(r, a, params)}
}

// tweak copies params and changes some of them.
func tweak(r *rand.Rand, a *lock.Info, params map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range params {
		out[k] = v
	}
	return tweakInto(r, a, out)
}

// tweakInto sets some of the algorithm's parameters to random values.
func tweakInto(r *rand.Rand, a *lock.Info, params map[string]any) map[string]any {
	for _, p := range a.Params {
		if r.IntN(5) >= 2 {
			continue
		}
		switch p.Name {
		case "ttl":
			params[p.Name] = dur(pick(r, 1000, 2000, 3000, 5000, 10000))
		case "retry":
			params[p.Name] = dur(pick(r, 10, 100, 500))
		case "retry_jitter":
			params[p.Name] = dur(pick(r, 0, 50, 200))
		case "acquire_timeout":
			params[p.Name] = dur(pick(r, 0, 1000, 3000))
		case "wait_timeout":
			params[p.Name] = dur(pick(r, 50, 100, 500))
		case "renew":
			params[p.Name] = dur(pick(r, 0, 200, 1000))
		case "quorum":
			params[p.Name] = pick(r, 0, 1, 2)
		case "tries":
			params[p.Name] = pick(r, 0, 3, 32)
		case "max_retries":
			params[p.Name] = pick(r, 0, 2, 5)
		case "wait_replicas":
			params[p.Name] = pick(r, 0, 1)
		case "drift_factor":
			params[p.Name] = pick(r, 0.01, 0.1)
		case "recover":
			params[p.Name] = pick(r, "getset", "del")
		case "owner":
			params[p.Name] = pick(r, "uuid:thread", "thread", "uuid")
		case "script":
			params[p.Name] = pick(r, "000", "002")
		case "check_expiry", "repair", "watchdog":
			params[p.Name] = r.IntN(2) == 0
		}
	}
	return params
}

func dur(n int) string { return ms(n).String() }
