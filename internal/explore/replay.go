package explore

import (
	"context"
	"errors"
	"fmt"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// replayQuiet runs sc with actions as its schedule, played by lesson.Run
// as every viewer plays a recording, but with no log. ok is false when the
// schedule cannot be replayed (a manual step of a client with nothing to
// do, a fault that does not apply): a session would stop there with no
// verdict. With until set, the replay stops as soon as the checker reports
// that verdict. When p says the search must stop, it returns errStopped.
func replayQuiet(p *pacer, sc *scenario.Scenario, seed int64, actions []scenario.Action, until string) (verdicts []string, ok bool, err error) {
	sc = withFaults(sc, actions)
	r, err := lesson.New(sc, lesson.Config{Seed: seed, Servers: embedded.Servers{}, Quiet: true})
	var misfit *lesson.MisfitError
	if errors.As(err, &misfit) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	for {
		if !p.step() {
			return nil, false, errStopped
		}
		more, err := r.Step()
		if errors.As(err, &misfit) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if !more {
			break
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
	return replay(newPacer(context.Background(), nil), sc)
}

// replay is Replay, told by p when to stop (errStopped).
func replay(p *pacer, sc *scenario.Scenario) (*lesson.Session, error) {
	s, err := lesson.NewSession(sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
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

// withFaults is sc under a search's choices: the faults it placed on marks
// (Fault.On set) join sc's own scripted faults, in the order placed, and
// the rest are its schedule.
func withFaults(sc *scenario.Scenario, actions []scenario.Action) *scenario.Scenario {
	out := *sc
	out.Faults = append([]scenario.Fault(nil), sc.Faults...)
	out.Schedule = nil
	for _, a := range actions {
		if a.On != nil {
			out.Faults = append(out.Faults, a.Fault)
		} else {
			out.Schedule = append(out.Schedule, a)
		}
	}
	return &out
}
