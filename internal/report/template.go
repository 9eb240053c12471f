package report

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Stock is the stock the deduct task starts from.
const Stock = "10"

// params gives a client of algorithm a the card's lease and retry, for the
// parameters it has, and its defaults otherwise (nil: it has neither).
func params(a *lock.Info) map[string]any {
	if a.CompareParams != nil {
		return a.CompareParams(Lease, Retry)
	}
	out := map[string]any{}
	if p, ok := a.Param("ttl"); ok && p.Kind == lock.Dur {
		out["ttl"] = Lease.String()
	}
	if p, ok := a.Param("retry"); ok && p.Kind == lock.Dur {
		out["retry"] = Retry.String()
	}
	if len(out) == 0 {
		return nil // none: written as no params, as the card's JSON reads back
	}
	return out
}

// masters names the masters a lock needs: one "redis" node, or r1..rN.
func masters(a *lock.Info) []scenario.Node {
	n := max(a.Nodes, a.CompareNodes)
	if n <= 1 {
		return nil
	}
	out := make([]scenario.Node, n)
	for i := range out {
		out[i] = scenario.Node{Name: fmt.Sprintf("r%d", i+1)}
	}
	return out
}

// Template is the scenario of one cell: two clients A and B running a,
// starting together, each doing one request, with col's fault budget as
// its explore section. Inside the critical section a lock's clients only
// work (task none): the card judges the lock by what it promises, one
// client inside at a time, and a fault can only hit the lock's own
// commands. A lock that hands out fencing tokens (p.Tokens) writes to a
// storage that checks them, where it is judged; code without a lock (no
// acquired mark: no lock at all, or WATCH/MULTI/EXEC) deducts from a stock
// of 10, where its harm shows.
func Template(a *lock.Info, col *Column, p *Probe) *scenario.Scenario {
	sc := &scenario.Scenario{
		ID:      "card-" + a.ID + "-" + col.ID,
		Title:   fact.Say("report.cell-title", a.ID, col.Title),
		Lesson:  fact.Say("report.cell-lesson", col.What),
		Seed:    1,
		Horizon: scenario.Duration(Horizon),
		Network: scenario.Network{Timeout: scenario.Duration(Timeout)},
		Nodes:   masters(a),
	}
	if col.Replica {
		sc.Nodes = []scenario.Node{{Name: "redis"}, {Name: "replica", ReplicaOf: "redis", Lag: scenario.Duration(Lag)}}
	}
	task := scenario.TaskNone
	switch {
	case p.Tokens:
		task = scenario.TaskWrite
		sc.Storage = &scenario.Storage{Fencing: true}
	case !p.Locks:
		task = scenario.TaskDeduct
		sc.Data = map[string]string{"stock": Stock}
	}
	for _, name := range []string{"A", "B"} {
		sc.Clients = append(sc.Clients, scenario.Client{Name: name, Algorithm: a.ID, Params: params(a),
			Work: scenario.Duration(Work), Task: task})
	}
	if len(col.Budget) > 0 {
		sc.Explore = &scenario.Explore{Faults: append([]scenario.Budget(nil), col.Budget...)}
	}
	sc.Expect = []string{sim.VerdictSafe}
	return sc
}
