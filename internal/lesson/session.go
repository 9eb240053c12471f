package lesson

import (
	"fmt"
	"slices"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Session is a scenario run that a viewer drives: step, step a chosen
// client, inject a fault, seek to any step backwards or forwards. Every user
// action is recorded with the step it was taken at (Run.Move, Run.Inject),
// so a session is fully described by (scenario, seed, actions) and replays
// byte for byte. Seeking backwards rebuilds the run and replays its
// actions; a user action taken at an earlier step than the last recorded
// one forks: the later actions are dropped.
type Session struct {
	sc   *scenario.Scenario
	cfg  Config
	run  *Run
	fold *keyFold // the key states of run's log so far (see Nodes)

	script []scenario.Action // the scenario's own schedule, before a user's recording (NewSessionOver)
}

// NewSession starts a session at step 0, its runs built as cfg says. The
// scenario's recorded schedule, if any, is the session's initial list of
// actions. On real servers every rebuild (a seek backwards, a reset)
// places a fresh run and replays it in real time.
func NewSession(sc *scenario.Scenario, cfg Config) (*Session, error) {
	s := &Session{sc: sc, cfg: cfg, script: sc.Schedule}
	if err := s.rebuild(sc.Schedule); err != nil {
		return nil, err
	}
	return s, nil
}

// NewSessionOver starts a session of sc, at step 0, whose schedule is a
// user's recording over a scenario whose own schedule was script (a share
// link's actions over a lesson): from the first action that differs from
// script, the run is off its script, as it was when the user took it.
func NewSessionOver(sc *scenario.Scenario, script []scenario.Action, cfg Config) (*Session, error) {
	s := &Session{sc: sc, cfg: cfg, script: slices.Clone(script)}
	if err := s.rebuild(sc.Schedule); err != nil {
		return nil, err
	}
	return s, nil
}

// Scenario is the session's scenario.
func (s *Session) Scenario() *scenario.Scenario { return s.sc }

// Seed is the session's seed.
func (s *Session) Seed() int64 { return s.cfg.Seed }

// Run is the live run at the cursor.
func (s *Session) Run() *Run { return s.run }

// Log is every event up to the cursor.
func (s *Session) Log() []*sim.Event { return s.run.World.Log() }

// Cursor is the number of steps taken.
func (s *Session) Cursor() int { return s.run.World.Steps() }

// Actions is the recorded schedule of user actions.
func (s *Session) Actions() []scenario.Action { return s.run.Actions() }

// Done reports whether the run is over and its verdicts are in.
func (s *Session) Done() bool { return s.run.Done() }

// Close releases the world.
func (s *Session) Close() {
	if s.run != nil {
		s.run.Close()
	}
}

// rebuild starts a new run at step 0 that plays actions.
func (s *Session) rebuild(actions []scenario.Action) error {
	sc := *s.sc
	sc.Schedule = slices.Clone(actions)
	r, err := newRun(&sc, s.script, s.cfg)
	if err != nil {
		return err
	}
	if s.run != nil {
		s.run.Close()
	}
	s.run = r
	return nil
}

// Step takes the next step. It returns false when the run is over.
func (s *Session) Step() (bool, error) { return s.run.Step() }

// Seek moves the cursor to step n (replaying from the seed if n is behind
// the cursor). It stops early if the run ends.
func (s *Session) Seek(n int) error {
	if n < 0 {
		n = 0
	}
	if n < s.Cursor() {
		if err := s.rebuild(s.run.Actions()); err != nil {
			return err
		}
	}
	for s.Cursor() < n {
		ok, err := s.run.Step()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	return nil
}

// StepClient lets one client make its next move now and records it. It
// returns false if the client had nothing to do.
func (s *Session) StepClient(name string) (bool, error) { return s.run.Move(name) }

// Inject applies a fault at the cursor and records it.
func (s *Session) Inject(f scenario.Fault) error { return s.run.Inject(f) }

// Reset goes back to step 0 with a seed, forgetting the recorded actions.
func (s *Session) Reset(seed int64) error {
	s.cfg.Seed = seed
	return s.rebuild(nil)
}

// RunToEnd steps, replaying the recorded actions, until the run is over
// and its final verdicts are in (see Run.RunToEnd).
func (s *Session) RunToEnd() error { return s.run.RunToEnd() }

// Recording is the session as a scenario: the original with the seed and
// the recorded actions as its schedule, so that loading it replays the same
// event log. Its expect: is what the recorded run ends with, not what the
// lesson expected: the verdicts of the live run when it is over, else
// those of a replay of the recording to its end. The replay runs as replay
// says, from the session's seed: on its Servers (embedded Redis,
// embedded.Servers{}, as a saved file is checked), yielding as its Yield
// says; a run recorded on real servers keeps its own verdicts, when they
// differ, as its real_redis expectation.
func (s *Session) Recording(replay Config) (scenario.Scenario, error) {
	out := *s.sc
	out.Seed = s.cfg.Seed
	out.Schedule = slices.Clone(s.run.Actions())
	onReal := s.run.World.Config().Pace != nil // real servers keep their own clock
	out.RealRedis = nil
	var live []string
	if s.run.Done() {
		live = s.run.Verdicts()
	}
	replayed := live
	if !s.run.Done() || onReal {
		replay.Seed = out.Seed
		got, err := replayVerdicts(&out, replay)
		switch {
		case err == nil:
			replayed = got
		case onReal && s.run.Done():
			// A run on real servers keeps real time: its manual steps
			// may not fit the embedded replay. Its own verdicts stand.
			replayed = live
		default:
			return out, fmt.Errorf("the recording does not replay: %w", err)
		}
	}
	out.Expect = append([]string{}, replayed...)
	if onReal && s.run.Done() && !SameVerdicts(live, replayed) {
		out.RealRedis = &scenario.RealRedis{Expect: append([]string{}, live...), Why: fact.Say("lesson.recorded-on-real-redis")}
	}
	return out, nil
}

// replayVerdicts runs a scenario to its end, playing its schedule, and gives
// its verdicts.
func replayVerdicts(sc *scenario.Scenario, cfg Config) ([]string, error) {
	r, err := New(sc, cfg)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		return nil, err
	}
	return r.Verdicts(), nil
}
