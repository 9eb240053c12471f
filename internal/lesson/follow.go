package lesson

import (
	"reflect"
	"slices"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Follow makes actions the session's recorded schedule, as another
// session's (a class's teacher's) holds it, so that seeking replays that
// session's run: same scenario, seed and actions give the same log byte
// for byte. When the actions the world has already taken are a prefix of
// the new ones and the others come at the cursor or later, the world is
// kept and any new fault recorded at the cursor is applied now; otherwise
// it is rebuilt at step 0. Either way, seek to
// the other session's cursor next.
func (s *Session) Follow(actions []scenario.Action) error {
	r := s.run
	taken := r.actions[:r.next]
	later := func(a scenario.Action) bool { return a.Step >= s.Cursor() }
	if len(actions) >= len(taken) && slices.EqualFunc(taken, actions[:len(taken)], sameAction) &&
		!slices.ContainsFunc(actions[len(taken):], func(a scenario.Action) bool { return !later(a) }) {
		r.actions = slices.Clone(actions)
		r.countScripted()
		return r.playFaults()
	}
	return s.rebuild(actions)
}

// sameAction compares two recorded actions, field by field.
func sameAction(a, b scenario.Action) bool { return reflect.DeepEqual(a, b) }

// Diverge is the first step at which two schedules of recorded actions
// may make different runs: the step of the first action where they
// differ, or of the first action one has beyond the other; -1 when they
// are the same. Runs of the same scenario and seed under both are the
// same, event for event, before that step.
func Diverge(a, b []scenario.Action) int {
	n := min(len(a), len(b))
	for i := range n {
		if !sameAction(a[i], b[i]) {
			return min(a[i].Step, b[i].Step)
		}
	}
	switch {
	case len(a) > n:
		return a[n].Step
	case len(b) > n:
		return b[n].Step
	}
	return -1
}

// EventsBefore counts the events of log taken before step (all of them
// when step is -1, as Diverge gives for the same schedules).
func EventsBefore(log []*sim.Event, step int) int {
	if step < 0 {
		return len(log)
	}
	n := 0
	for n < len(log) && log[n].Step < step {
		n++
	}
	return n
}
