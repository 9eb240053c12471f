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
	for _, a := range sim.Actions {
		if a.Fault {
			continue
		}
		n++
		t.Run(a.Do, func(t *testing.T) {
			sc := *builtin(t, "no-lock-oversell")
			sc.Schedule = []scenario.Action{{Step: 1, Fault: scenario.Fault{Do: a.Do, Client: sc.Clients[1].Name}}}
			r, err := New(&sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if err := r.RunToEnd(); err != nil {
				t.Fatalf("a recorded %s: %v", a.Do, err)
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
