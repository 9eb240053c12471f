package explore

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// replayQuiet runs sc with actions as its schedule, as lesson.Session
// replays a recording (faults recorded at a step are applied once the
// cursor reaches it, then a manual step recorded there is taken instead of
// the engine's own), but with no log. ok is false when the schedule cannot
// be replayed (a manual step of a client with nothing to do, a fault that
// does not apply): Session would stop there with no verdict. With until
// set, the replay stops as soon as the checker reports that verdict. When
// p says the search must stop, it returns errStopped.
func replayQuiet(p *pacer, sc *scenario.Scenario, seed int64, actions []scenario.Action, until string) (verdicts []string, ok bool, err error) {
	sc, actions = withFaults(sc, actions)
	r, err := lesson.BuildQuiet(sc, seed, 0)
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	w := r.World
	next := 0
	faults := func() bool {
		for next < len(actions) && actions[next].Step == w.Steps() && actions[next].Do != scenario.StepAction {
			if w.Apply(lesson.SimFault(actions[next].Fault)) != nil {
				return false
			}
			next++
		}
		return true
	}
	if !faults() {
		return nil, false, nil
	}
	for {
		if !p.step() {
			return nil, false, errStopped
		}
		if next < len(actions) && actions[next].Step == w.Steps() && actions[next].Do == scenario.StepAction {
			moved, err := r.StepClient(actions[next].Client)
			next++
			if err != nil || !moved {
				return nil, false, err
			}
		} else if !r.Step() {
			break
		}
		if !faults() {
			return nil, false, nil
		}
		if until != "" && containsStr(r.Checker.Verdicts(), until) {
			return r.Checker.Verdicts(), true, nil
		}
	}
	return r.Verdicts(), true, nil
}

// Replay runs a recording (a scenario with a schedule) through
// lesson.Session with the full event log, as the browser and a saved
// recording replay it, and returns the session at the end of the run.
// The caller closes it.
func Replay(sc *scenario.Scenario) (*lesson.Session, error) {
	return replay(newPacer(nil, nil), sc)
}

// replay is Replay, told by p when to stop (errStopped).
func replay(p *pacer, sc *scenario.Scenario) (*lesson.Session, error) {
	s, err := lesson.NewSession(sc, sc.Seed)
	if err != nil {
		return nil, err
	}
	for {
		more, err := s.Step()
		if err == nil && more && !p.step() {
			err = errStopped
		}
		if err != nil {
			s.Close()
			return nil, err
		}
		if !more {
			break
		}
	}
	if !s.Run().Done() {
		s.Close()
		return nil, fmt.Errorf("explore: the recording of %s stops at step %d before the end of the run", sc.ID, s.Cursor())
	}
	return s, nil
}

// withFaults splits a search's choices: the faults it placed on marks
// (Fault.On set) join sc's own scripted faults, in the order placed, and
// the rest stay a schedule.
func withFaults(sc *scenario.Scenario, actions []scenario.Action) (*scenario.Scenario, []scenario.Action) {
	out := *sc
	out.Faults = append([]scenario.Fault(nil), sc.Faults...)
	var schedule []scenario.Action
	for _, a := range actions {
		if a.On != nil {
			out.Faults = append(out.Faults, a.Fault)
		} else {
			schedule = append(schedule, a)
		}
	}
	return &out, schedule
}
