package lesson

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"

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
	fold    *keyFold // the key states of run's log so far (see Nodes)
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
		if err := s.run.ByUser(func() error { return s.run.World.Apply(SimFault(a.Fault)) }); err != nil {
			return fmt.Errorf("recorded action at step %d: %w", a.Step, err)
		}
		s.run.userFaults++
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
		err := s.run.ByUser(func() (err error) { ok, err = s.run.StepClient(a.Client); return err })
		if err != nil {
			return false, fmt.Errorf("recorded step of %s at step %d: %w", a.Client, a.Step, err)
		}
		if !ok {
			// The recording no longer fits the run (an edited file): say
			// so rather than end the run quietly without its verdicts.
			return false, fmt.Errorf("recorded step of %s at step %d: %s has no move to make there", a.Client, a.Step, a.Client)
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
	var ok bool
	err := s.run.ByUser(func() (err error) { ok, err = s.run.StepClient(name); return err })
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
	// A pause that would end before the client's current one changes
	// nothing (the engine lets a script's pause pass): a user's is refused,
	// and says why, rather than recorded and silently lost.
	if sf := SimFault(f); sf.Kind == sim.FaultPause && sf.For > 0 {
		if until, ok := s.run.World.PausedUntil(sf.Client); ok && s.run.World.Now()+sf.For <= until {
			return sim.Refuse(&fact.Fact{Key: fact.AlreadyPaused, Client: sf.Client, Until: until, For: sf.For})
		}
	}
	s.fork()
	if err := s.run.ByUser(func() error { return s.run.World.Apply(SimFault(f)) }); err != nil {
		return err
	}
	s.run.userFaults++
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

// RunToEnd steps, replaying the recorded actions, until the run is over
// and its final verdicts are in. A recorded action the run never reaches
// (its step is past the run's end) is an error: the recording does not
// fit its scenario.
func (s *Session) RunToEnd() error {
	for {
		ok, err := s.advance()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	if s.next < len(s.actions) {
		a := s.actions[s.next]
		return fmt.Errorf("recorded %s at step %d is never reached: the run ends at step %d", a.Do, a.Step, s.Cursor())
	}
	return nil
}

// Replay runs a scenario from seed to its end on servers (nil: embedded
// Redis), taking the recorded actions of its schedule at their steps, as
// the browser does when it plays the scenario. The caller closes the
// session.
func Replay(sc *scenario.Scenario, seed int64, servers Servers) (*Session, error) {
	s, err := NewSessionOn(sc, seed, servers)
	if err != nil {
		return nil, err
	}
	if err := s.RunToEnd(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Recording is the session as a scenario: the original with the seed and
// the recorded actions as its schedule, so that loading it replays the same
// event log. Its expect: is what the recorded run ends with, not what the
// lesson expected: the verdicts of the live run when it is over, else
// those of a replay of the recording to its end. The replay runs on
// embedded Redis; a run recorded on real servers keeps its own verdicts,
// when they differ, as its real_redis expectation.
func (s *Session) Recording() (scenario.Scenario, error) {
	out := *s.sc
	out.Seed = s.seed
	out.Schedule = append([]scenario.Action(nil), s.actions...)
	out.RealRedis = nil
	var live []string
	if s.run.Done() {
		live = s.run.Verdicts()
	}
	embedded := live
	if !s.run.Done() || s.servers != nil {
		r, err := Replay(&out, out.Seed, nil)
		switch {
		case err == nil:
			embedded = r.Run().Verdicts()
			r.Close()
		case s.servers != nil && s.run.Done():
			// A run on real servers keeps real time: its manual steps
			// may not fit the embedded replay. Its own verdicts stand.
			embedded = live
		default:
			return out, fmt.Errorf("the recording does not replay: %w", err)
		}
	}
	out.Expect = append([]string{}, embedded...)
	if s.servers != nil && s.run.Done() && !SameVerdicts(live, embedded) {
		out.RealRedis = &scenario.RealRedis{Expect: append([]string{}, live...), Why: sim.Text{
			En: "The verdicts this run ended with when it was recorded on real Redis.",
			Zh: "录制时在真实 Redis 上这次运行得到的判定。",
		}}
	}
	return out, nil
}
