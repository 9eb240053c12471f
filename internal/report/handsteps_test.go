package report

import (
	"context"
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/scenario"
)

// A card counterexample keeps the hand steps its race needs.
//
// Argued first: redlock/restart breaks only when B wins the first round
// (two of the three masters) while A wins one, so that A gives its one
// vote back, r1 restarts empty and A's retry wins r1 and r3 beside B.
// A and B send their SETs at the same instant; which one each master runs
// first is the engine's choice. A schedule with one hand step of B, the
// other master left to the engine's seeded choice, breaks on embedded
// Redis but on a real server, where the moments of the moves differ,
// A won that master in half the runs (5 of 10, measured) and the run
// ended safe. The recording must keep every hand step whose removal
// loses the verdict in any of the jittered runs (20ms of latency per
// message, as real round trips vary): B's move on both masters.
func TestACounterexampleKeepsTheHandStepsItsRaceNeeds(t *testing.T) {
	_, c, err := ComputeCell(context.Background(), "redlock", "restart")
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind != Fails {
		t.Fatalf("redlock/restart: got %s, want a counterexample", c.Kind)
	}
	ce := c.Counterexample
	verdict := ce.Expect[0]
	full := jittered(t, ce, ce.Schedule, verdict)
	steps := 0
	for i, a := range ce.Schedule {
		if a.Do != scenario.StepAction {
			continue
		}
		steps++
		without := slices.Delete(slices.Clone(ce.Schedule), i, i+1)
		if n := jittered(t, ce, without, verdict); n >= full {
			t.Errorf("without its hand step %+v the schedule keeps %s in %d of %d jittered runs, as many as with it (%d): the step was not needed", a, verdict, n, explore.JitterRuns, full)
		}
	}
	if steps < 2 {
		t.Errorf("the counterexample has %d hand steps; B must win two masters: %+v", steps, ce.Schedule)
	}
}

// jittered counts the runs of sc with schedule actions, RealJitter of
// latency per message and seeds 1 to JitterRuns, that end with verdict.
func jittered(t *testing.T, sc *scenario.Scenario, actions []scenario.Action, verdict string) int {
	t.Helper()
	n := 0
	for seed := int64(1); seed <= explore.JitterRuns; seed++ {
		run := *sc
		run.Schedule = actions
		run.Seed = seed
		run.Network.Jitter = max(run.Network.Jitter, scenario.Duration(explore.RealJitter))
		s, err := explore.Replay(&run)
		if err != nil {
			continue // a hand step with nothing to move: the schedule does not fit this run
		}
		if slices.Contains(s.Run().Verdicts(), verdict) {
			n++
		}
		s.Close()
	}
	return n
}
