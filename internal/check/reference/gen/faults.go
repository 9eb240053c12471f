package gen

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The faults of a generated scenario: one of a random kind, on a random
// client or node, at a time or on an event of a client's run.

// randomFault makes one fault of a random kind (and, for restart and
// node-restart, the crash it needs first).
func randomFault(r *rand.Rand, sc *scenario.Scenario, clients, nodes, masters []string, horizon time.Duration) []scenario.Fault {
	kind := pick(r, FaultKinds...)
	when := func(f scenario.Fault) scenario.Fault {
		if r.IntN(3) == 0 {
			f.On = randomMatch(r, sc)
		} else {
			f.At = dp(time.Duration(r.Int64N(int64(horizon * 3 / 4))))
		}
		return f
	}
	c, n := pick(r, clients...), pick(r, nodes...)
	redisNode := func() string { return n }
	switch sim.FaultKind(kind) {
	case sim.FaultCrash:
		f := scenario.Fault{Do: string(sim.FaultCrash), Client: c}
		if r.IntN(2) == 0 {
			f.For = d(ms(pick(r, 100, 500, 2000)))
		}
		return []scenario.Fault{when(f)}
	case sim.FaultRestart:
		at := time.Duration(r.Int64N(int64(horizon / 2)))
		return []scenario.Fault{
			{When: scenario.When{At: dp(at)}, Do: string(sim.FaultCrash), Client: c},
			{When: scenario.When{At: dp(at + ms(pick(r, 100, 500, 1500)))}, Do: string(sim.FaultRestart), Client: c},
		}
	case sim.FaultPause:
		return []scenario.Fault{when(scenario.Fault{Do: string(sim.FaultPause), Client: c, For: d(ms(pick(r, 100, 1000, 3000, 6000)))})}
	case sim.FaultDropRequest, sim.FaultDropReply:
		f := scenario.Fault{Do: kind, Client: c}
		if r.IntN(2) == 0 {
			f.Node = redisNode()
		}
		return []scenario.Fault{when(f)}
	case sim.FaultPartition:
		f := scenario.Fault{Do: string(sim.FaultPartition), Node: redisNode()}
		if r.IntN(2) == 0 {
			f.Client = c
		}
		if r.IntN(3) > 0 {
			f.For = d(ms(pick(r, 200, 1000, 3000)))
		}
		return []scenario.Fault{when(f)}
	case sim.FaultHeal:
		at := time.Duration(r.Int64N(int64(horizon / 2)))
		node := redisNode()
		return []scenario.Fault{
			{When: scenario.When{At: dp(at)}, Do: string(sim.FaultPartition), Node: node},
			{When: scenario.When{At: dp(at + ms(pick(r, 100, 1000)))}, Do: string(sim.FaultHeal), Node: node},
		}
	case sim.FaultNodeCrash:
		f := scenario.Fault{Do: string(sim.FaultNodeCrash), Node: redisNode(), KeepData: r.IntN(2) == 0}
		if r.IntN(3) > 0 {
			f.For = d(ms(pick(r, 100, 500, 2000)))
		}
		return []scenario.Fault{when(f)}
	case sim.FaultNodeRestart:
		at := time.Duration(r.Int64N(int64(horizon / 2)))
		node := redisNode()
		return []scenario.Fault{
			{When: scenario.When{At: dp(at)}, Do: string(sim.FaultNodeCrash), Node: node},
			{When: scenario.When{At: dp(at + ms(pick(r, 100, 1000)))}, Do: string(sim.FaultNodeRestart), Node: node, KeepData: r.IntN(2) == 0},
		}
	case sim.FaultClockJump:
		return []scenario.Fault{when(scenario.Fault{Do: string(sim.FaultClockJump), Node: redisNode(), By: d(ms(pick(r, -2000, 1000, 5000, 10000)))})}
	case sim.FaultSkew:
		return []scenario.Fault{when(scenario.Fault{Do: string(sim.FaultSkew), Client: c, By: d(ms(pick(r, -3000, 1000, 5000)))})}
	case sim.FaultFailover: // a master with a replica
		for _, nd := range sc.Nodes {
			if nd.ReplicaOf != "" {
				return []scenario.Fault{when(scenario.Fault{Do: string(sim.FaultFailover), Node: nd.ReplicaOf})}
			}
		}
		return []scenario.Fault{when(scenario.Fault{Do: string(sim.FaultNodeCrash), Node: masters[0], For: d(ms(500))})}
	}
	a, _ := sim.ActionOf(kind)
	return []scenario.Fault{when(fromRow(r, a, c, redisNode()))}
}

// fromRow makes a fault of a kind that has no case in randomFault from
// its row of sim.Actions alone: on client c or node n as its target says
// (a link to n, from c or from every client), with a size when its amount
// is required, else half the time. A kind that needs another fault first
// (a restart its crash) or a target of a kind (a master with a replica)
// takes its own case above.
func fromRow(r *rand.Rand, a sim.Action, c, n string) scenario.Fault {
	f := scenario.Fault{Do: a.Do}
	if a.NeedsClient() || a.Target == sim.TargetLink && r.IntN(2) == 0 {
		f.Client = c
	}
	if a.NeedsNode() {
		f.Node = n
	}
	if !a.Required && r.IntN(2) == 0 {
		return f
	}
	switch a.Amount {
	case sim.AmountDuration:
		f.For = d(ms(pick(r, 100, 500, 2000)))
	case sim.AmountJump:
		f.By = d(ms(pick(r, -2000, 1000, 5000)))
	case sim.AmountOffset:
		f.By = d(ms(pick(r, 0, 1000, 5000)))
	}
	return f
}

// randomMatch selects an event of a client's run to fault on: a lock step
// it writes (scenario.MarksOf), a command it sends or runs.
func randomMatch(r *rand.Rand, sc *scenario.Scenario) *scenario.Match {
	cl := &sc.Clients[r.IntN(len(sc.Clients))]
	c := cl.Name
	k := r.IntN(5)
	if k < 3 && !slices.Contains(scenario.MarksOf(sc, cl), sim.MarkEnter) {
		k = 3 // no lock steps: a command instead
	}
	switch k {
	case 0:
		return &scenario.Match{Kind: "mark", Name: "acquired", Client: c, Nth: 1 + r.IntN(2)}
	case 1:
		return &scenario.Match{Kind: "mark", Name: "enter", Client: c}
	case 2:
		return &scenario.Match{Kind: "mark", Name: "leave", Client: c}
	case 3:
		return &scenario.Match{Kind: "exec", Client: c, Nth: 1 + r.IntN(3)}
	default:
		return &scenario.Match{Kind: "send", Client: c, Nth: 1 + r.IntN(4)}
	}
}
