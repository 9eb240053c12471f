package explore

import (
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Default bounds of a schedule.
const (
	DefaultSteps = 2000 // engine steps per schedule
)

// bounds are a search's limits and fault budget, resolved.
type bounds struct {
	steps     int
	horizon   time.Duration
	window    time.Duration
	budget    []scenario.Budget // Count filled in (default 1)
	exact     bool              // faults take their max only (no smaller sizes)
	anyClient bool              // a client fault may hit any client at any step (else: the step's actors)
	marks     []string          // client faults only at these marks (none: everywhere)
	points    []scenario.Match  // besides marks, events where a client fault may land on the event's client
	masters   []string          // the nodes with a replica (a failover's targets)
}

// resolve fills in the defaults of an explore section for scenario sc.
func resolve(sc *scenario.Scenario, e *scenario.Explore) (bounds, error) {
	b := bounds{steps: DefaultSteps, horizon: sc.HorizonOrDefault()}
	for _, n := range sc.Nodes {
		if n.ReplicaOf != "" && !containsStr(b.masters, n.ReplicaOf) {
			b.masters = append(b.masters, n.ReplicaOf)
		}
	}
	if e == nil {
		return b, nil
	}
	if e.Steps > 0 {
		b.steps = min(e.Steps, scenario.MaxSteps) // a file asking more is refused at validation
	}
	if e.Horizon > 0 {
		b.horizon = e.Horizon.D()
	}
	b.window = e.Window.D()
	for _, f := range e.Faults {
		if f.Count == 0 {
			f.Count = 1
		}
		if !containsStr(sim.SearchKinds, f.Do) {
			return b, fmt.Errorf("explore: a search cannot place %q faults (it can place %v)", f.Do, sim.SearchKinds)
		}
		if need, _ := sized(f.Do); need && f.Max <= 0 {
			return b, fmt.Errorf("explore: %s", scenario.BudgetMaxProblem(f))
		}
		b.budget = append(b.budget, f)
	}
	return b, nil
}

// action is the row of sim.Actions for do (the zero row for an unknown do).
func action(do string) sim.Action {
	a, _ := sim.ActionOf(do)
	return a
}

// sized tells whether a budget entry of kind do needs a max (its amount is
// required: a pause, a clock jump) or may have one (a node crash or
// partition, which without one lasts); the kinds a search places without
// an amount take none.
func sized(do string) (need, may bool) {
	a := action(do)
	return a.Search == sim.SearchSized && a.Required, a.Search == sim.SearchSized
}

// levels are the sizes a search tries for a budget entry whose max is
// most: its quarters, so that "up to 5s" tries 1.25s, 2.5s, 3.75s and 5s;
// with exact set, the max only.
func levels(most time.Duration, exact bool) []time.Duration {
	if exact {
		return []time.Duration{most}
	}
	return []time.Duration{most / 4, most / 2, most * 3 / 4, most}
}

// fault builds the scenario fault of a budget entry on a client, a node
// or (a partition) the link between them, with size d.
func fault(b scenario.Budget, client, node string, d time.Duration) scenario.Fault {
	a := action(b.Do)
	f := scenario.Fault{Do: b.Do}
	if a.NeedsNode() {
		f.Node = node
	}
	if a.Target != sim.TargetNode {
		f.Client = client
	}
	if a.Search == sim.SearchSized {
		*f.Size() = scenario.Duration(d)
	}
	return f
}
