package lesson

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Session is a scenario run that a viewer drives: step, step a chosen
// client, inject a fault, seek to any step backwards or forwards. Every user
// action is recorded with the step it was taken at, so a session is fully
// described by (scenario, seed, actions) and replays byte for byte. Seeking
// backwards rebuilds the world and replays; a user action taken at an
// earlier step than the last recorded one forks: the later actions are
// dropped.
type Session struct {
	sc      *scenario.Scenario
	servers Servers // nil: embedded Redis
	seed    int64
	actions []scenario.Action
	next    int // index of the next action to replay
	run     *Run
}

// NewSession starts a session at step 0. The scenario's recorded schedule,
// if any, is the session's initial list of actions.
func NewSession(sc *scenario.Scenario, seed int64) (*Session, error) {
	return NewSessionOn(sc, seed, nil)
}

// NewSessionOn starts a session whose runs are placed by servers (nil:
// embedded Redis). On real servers every rebuild (a seek backwards, a
// reset) places a fresh run and replays it in real time.
func NewSessionOn(sc *scenario.Scenario, seed int64, servers Servers) (*Session, error) {
	s := &Session{sc: sc, servers: servers, seed: seed, actions: append([]scenario.Action(nil), sc.Schedule...)}
	if err := s.rebuild(); err != nil {
		return nil, err
	}
	return s, nil
}

// Scenario is the session's scenario.
func (s *Session) Scenario() *scenario.Scenario { return s.sc }

// Seed is the session's seed.
func (s *Session) Seed() int64 { return s.seed }

// Run is the live run at the cursor.
func (s *Session) Run() *Run { return s.run }

// Log is every event up to the cursor.
func (s *Session) Log() []*sim.Event { return s.run.World.Log() }

// Cursor is the number of steps taken.
func (s *Session) Cursor() int { return s.run.World.Steps() }

// Actions is the recorded schedule of user actions.
func (s *Session) Actions() []scenario.Action { return s.actions }

// Close releases the world.
func (s *Session) Close() {
	if s.run != nil {
		s.run.Close()
	}
}

func (s *Session) rebuild() error {
	r, err := BuildOn(s.sc, s.seed, s.servers)
	if err != nil {
		return err
	}
	if s.run != nil {
		s.run.Close()
	}
	s.run, s.next = r, 0
	return s.applyFaultsHere()
}

// applyFaultsHere applies recorded faults taken at the current step.
func (s *Session) applyFaultsHere() error {
	for s.next < len(s.actions) && s.actions[s.next].Step == s.Cursor() && s.actions[s.next].Do != "step" {
		a := s.actions[s.next]
		s.next++
		if err := s.run.World.Apply(SimFault(a.Fault)); err != nil {
			return fmt.Errorf("recorded action at step %d: %w", a.Step, err)
		}
	}
	return nil
}

// advance takes one step as recorded: a manual step of a client if one was
// recorded here, else the engine's own choice.
func (s *Session) advance() (bool, error) {
	var ok bool
	if s.next < len(s.actions) && s.actions[s.next].Step == s.Cursor() && s.actions[s.next].Do == "step" {
		a := s.actions[s.next]
		s.next++
		var err error
		if ok, err = s.run.StepClient(a.Client); err != nil {
			return false, err
		}
	} else {
		ok = s.run.Step()
	}
	if ok {
		if err := s.applyFaultsHere(); err != nil {
			return false, err
		}
	}
	return ok, nil
}

// Step takes the next step. It returns false when the run is over.
func (s *Session) Step() (bool, error) { return s.advance() }

// Seek moves the cursor to step n (replaying from the seed if n is behind
// the cursor). It stops early if the run ends.
func (s *Session) Seek(n int) error {
	if n < 0 {
		n = 0
	}
	if n < s.Cursor() {
		if err := s.rebuild(); err != nil {
			return err
		}
	}
	for s.Cursor() < n {
		ok, err := s.advance()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	return nil
}

// fork drops the recorded actions after the cursor, before a new action.
func (s *Session) fork() {
	s.actions = s.actions[:s.next]
}

// StepClient lets one client make its next move now and records it. It
// returns false if the client had nothing to do.
func (s *Session) StepClient(name string) (bool, error) {
	if s.run.World.Ended() {
		return false, nil
	}
	s.fork()
	at := s.Cursor()
	ok, err := s.run.StepClient(name)
	if err != nil || !ok {
		return ok, err
	}
	s.actions = append(s.actions, scenario.Action{Step: at, Fault: scenario.Fault{Do: "step", Client: name}})
	s.next = len(s.actions)
	if err := s.applyFaultsHere(); err != nil {
		return true, err
	}
	// The last move made by hand ends the run at once: the verdict follows
	// it, as it follows the engine's own last step (a replay takes the same
	// closing step through advance).
	if s.run.World.Idle() {
		if _, err := s.advance(); err != nil {
			return true, err
		}
	}
	return true, nil
}

// Inject applies a fault at the cursor and records it.
func (s *Session) Inject(f scenario.Fault) error {
	if s.run.World.Ended() {
		return fmt.Errorf("the run is over: step back to inject a fault")
	}
	f.At, f.On = nil, nil
	s.fork()
	if err := s.run.World.Apply(SimFault(f)); err != nil {
		return err
	}
	s.actions = append(s.actions, scenario.Action{Step: s.Cursor(), Fault: f})
	s.next = len(s.actions)
	return nil
}

// Reset goes back to step 0 with a seed, forgetting the recorded actions.
func (s *Session) Reset(seed int64) error {
	s.seed = seed
	s.actions = nil
	return s.rebuild()
}

// Recording is the session as a scenario: the original with the seed and
// the recorded actions as its schedule, so that loading it replays the same
// event log.
func (s *Session) Recording() scenario.Scenario {
	out := *s.sc
	out.Seed = s.seed
	out.Schedule = append([]scenario.Action(nil), s.actions...)
	return out
}
