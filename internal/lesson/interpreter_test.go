package lesson

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Every schedule action of the vocabulary (the rows of sim.Actions that
// are not faults) is played by Run.Step: recorded by hand once, the run
// replays it to its end. An action added to the table and not to the
// interpreter is taken for a fault and refused here.
func TestEveryScheduleActionIsPlayed(t *testing.T) {
	n := 0
	for _, do := range sim.ScheduleActions {
		n++
		t.Run(do, func(t *testing.T) {
			sc := *builtin(t, "no-lock-oversell")
			sc.Schedule = []scenario.Action{{Step: 1, Fault: scenario.Fault{Do: do, Client: sc.Clients[1].Name}}}
			r, err := New(&sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if err := r.RunToEnd(); err != nil {
				t.Fatalf("a recorded %s: %v", do, err)
			}
		})
	}
	if n == 0 {
		t.Fatal("the vocabulary declares no schedule action")
	}
}

// A recording that does not fit its run says where, as a MisfitError: a
// step of a client with no move to make, a fault that does not apply, an
// action past the run's end.
func TestRecordingThatDoesNotFit(t *testing.T) {
	base := *builtin(t, "no-lock-oversell")
	// A step at which A has no move to make, the run not over: A is done
	// before B.
	idle := -1
	probe, err := New(&base, cfg(base.Seed))
	if err != nil {
		t.Fatal(err)
	}
	for idle < 0 {
		if more, err := probe.Step(); err != nil || !more {
			t.Fatalf("no step where A is idle before the end (%v)", err)
		}
		if w := probe.World; !w.Ended() && len(w.Pending()) > 0 && !slices.Contains(w.Pending(), "A") {
			idle = w.Steps()
		}
	}
	probe.Close()
	for name, c := range map[string]struct {
		actions []scenario.Action
		want    string
	}{
		"no move": {[]scenario.Action{{Step: idle, Fault: scenario.Fault{Do: scenario.StepAction, Client: "A"}}},
			fmt.Sprintf("recorded step of A at step %d: A has no move to make there", idle)},
		"bad fault": {[]scenario.Action{{Step: 1, Fault: scenario.Fault{Do: "node-restart", Node: "redis"}}},
			"recorded node-restart at step 1: sim: bad fault: redis is not down"},
		"too late": {[]scenario.Action{{Step: 5000, Fault: scenario.Fault{Do: "pause", Client: "A", For: scenario.Duration(1e9)}}},
			"recorded pause at step 5000 is never reached: the run ends at step"},
	} {
		t.Run(name, func(t *testing.T) {
			sc := base
			sc.Schedule = c.actions
			r, err := New(&sc, cfg(sc.Seed))
			if err == nil {
				defer r.Close()
				err = r.RunToEnd()
			}
			var m *MisfitError
			if !errors.As(err, &m) || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
				t.Errorf("got %v, want a MisfitError %q", err, c.want)
			}
		})
	}
}

// The interpreter's hooks, as the comparison uses them: Setup sees the run
// before its first recorded fault (a watcher set there sees the fault
// recorded at step 0), OnAction is told of every recorded action in the
// order played, and Choose moves the client it names when the engine
// would choose: with it naming B, or A, the lesson's race starts with that
// client's first move, whatever the seed draws.
func TestTheInterpreterHooks(t *testing.T) {
	base := *builtin(t, "no-lock-oversell")
	a, b := base.Clients[0].Name, base.Clients[1].Name
	base.Schedule = []scenario.Action{
		{Step: 0, Fault: scenario.Fault{Do: "pause", Client: a, For: scenario.Duration(1e6)}},
		{Step: 2, Fault: scenario.Fault{Do: scenario.StepAction, Client: b}},
	}
	for _, first := range []string{a, b} {
		var faultSteps []int
		var played []string
		var firstMove string
		c := cfg(base.Seed)
		c.Setup = func(r *Run) {
			r.World.Watch(func(e *sim.Event) {
				if e.Kind == sim.KindFault && e.Name == "pause" {
					faultSteps = append(faultSteps, e.Step)
				}
				if e.Kind == sim.KindExec && firstMove == "" {
					firstMove = e.Client
				}
			})
		}
		c.OnAction = func(x scenario.Action) { played = append(played, fmt.Sprintf("%s@%d", x.Do, x.Step)) }
		c.Choose = func(*sim.World) string { return first }
		r, err := New(&base, c)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.RunToEnd(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if !slices.Equal(faultSteps, []int{0}) {
			t.Errorf("choosing %s: the watcher set in Setup saw the pause at steps %v, want [0]", first, faultSteps)
		}
		if want := []string{"pause@0", scenario.StepAction + "@2"}; !slices.Equal(played, want) {
			t.Errorf("choosing %s: OnAction was told %v, want %v", first, played, want)
		}
		if firstMove != first {
			t.Errorf("choosing %s: the first command was %s's", first, firstMove)
		}
	}
}
