package server

import (
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// takesAction is the request a viewer sends to take each schedule action
// (the rows of sim.Actions that are not faults; faults are injected with
// inject), on the two-buyer lesson.
var takesAction = map[string]map[string]any{
	"step": {"op": "step-client", "client": "A"},
}

// Every schedule action of the vocabulary can be taken through the
// protocol, and is recorded as itself in the session's actions: an action
// added to sim.Actions with no request that takes it fails here
// (docs/architecture.md, Adding a schedule action, step 3).
func TestEveryScheduleActionCanBeTaken(t *testing.T) {
	for _, do := range sim.ScheduleActions {
		req, ok := takesAction[do]
		if !ok {
			t.Errorf("no request takes the schedule action %q: add it to internal/server/requests.go and to takesAction", do)
			continue
		}
		c := openSession(t, Limits{})
		c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
		c.next("state")
		c.send(req)
		m := c.next("state")
		if got := m.Snap.Actions; len(got) != 1 || got[0].Do != do {
			t.Errorf("%v: the session recorded %+v, want one %q", req, got, do)
		}
	}
	if len(sim.ScheduleActions) == 0 {
		t.Error("sim.Actions has no schedule action: the test checks nothing")
	}
}
