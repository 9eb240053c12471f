package server

import (
	"github.com/lockstep/lockstep/internal/scenario"
)

// testPanic, when a test sets it, is called with every request before it
// is applied: the way a test makes a request panic.
var testPanic func(*Request)

// handle runs one request on the session's goroutine and answers it.
func (s *session) handle(c *conn, r *Request) {
	if s.conn != c {
		c.enqueue(errorMessage(r.ID, coded("other-tab", nil, "this tab no longer drives the session")))
		return
	}
	before, had := -1, -1
	if s.ls != nil {
		before, had = s.ls.Cursor(), len(s.ls.Log())
	}
	if testPanic != nil {
		testPanic(r)
	}
	msg, err := s.apply(r)
	if err != nil {
		c.enqueue(errorMessage(r.ID, err))
		if s.ls != nil && (s.ls.Cursor() != before || len(s.ls.Log()) != had) {
			s.push(0) // the run moved before the error
		}
		return
	}
	if msg != nil {
		msg.Re = r.ID
		s.answer(c, msg)
		return
	}
	s.push(r.ID)
}

// answer queues msg for c. A comparison's answer (two sides of up to
// 5,000 rows, megabytes of JSON) is encoded as long work, on a bulk slot
// and an engine slot: many encoded at once off the slots took the CPUs
// from other sessions' steps.
func (s *session) answer(c *conn, msg *Message) {
	if msg.Compare != nil && msg.Compare.Left != nil {
		s.bulkTurn(func() { c.enqueue(msg) })
		return
	}
	c.enqueue(msg)
}

// apply performs a request. It returns a message to send instead of the
// state, or nil to send the state.
func (s *session) apply(r *Request) (*Message, error) {
	if msg, err, ok := s.remoteOp(r); ok {
		return msg, err
	}
	if msg, err, ok := s.classOp(r); ok {
		return msg, err
	}
	if msg, err, ok := s.runlessOp(r); ok {
		return msg, err
	}
	if s.ls == nil && s.shown != nil { // the class's run, shown without a world (classshare.go)
		if r.Op == "compare" { // made afresh from the run shown: no world of her own needed
			if err := s.classLiveRefused(r.Op); err != nil {
				return nil, err
			}
			return s.compareRun(r)
		}
		if r.Op == "sync" {
			s.sent = 0
			return nil, nil
		}
		if err := s.ownRun(); err != nil {
			return nil, err
		}
	}
	if s.live != nil && s.ls == nil {
		if r.Op == "compare" {
			return s.compareFromLive(r)
		}
		return nil, s.applyLive(r)
	}
	if s.ls == nil {
		return nil, coded("no-scenario", nil, "no scenario loaded: send load first")
	}
	switch r.Op {
	case "step":
		return nil, s.stepN(max(r.N, 1))
	case "step-client":
		return nil, s.stepClient(r.Client)
	case "back":
		s.setPlaying(false)
		return nil, s.seek(s.ls.Cursor() - 1)
	case "seek":
		return nil, s.seek(*r.Step)
	case "play":
		if r.Speed != 0 {
			s.speed = r.Speed
		}
		if r.Beats != nil {
			s.beats = *r.Beats
		}
		s.setPlaying(!s.ls.Done())
	case "pause":
		s.setPlaying(false)
	case "inject":
		return nil, s.inject(*r.Fault)
	case "reset", "seed":
		return nil, s.unreachable(s.reset(r.Seed))
	case "export-yaml":
		b, err := s.recording()
		if err != nil {
			return nil, err
		}
		return &Message{Type: "yaml", Name: s.ls.Scenario().ID + "-recording.yaml", Text: string(b)}, nil
	case "sync":
		s.sent = 0
	case "explore":
		return s.startExplore(r)
	case "explore-cancel":
		s.cancelExplore()
		return &Message{Type: "explore-cancelling"}, nil
	case "compare":
		return s.compareRun(r)
	default:
		return nil, coded("unknown-op", map[string]any{"op": r.Op}, "unknown op %q (see docs/protocol.md)", r.Op)
	}
	return nil, nil
}

// runlessOp answers the ops that need no run of the session's own:
// loading one, checking a file, the report card and the card for a
// setup. It reports whether r was one of them.
func (s *session) runlessOp(r *Request) (*Message, error, bool) {
	var msg *Message
	var err error
	switch r.Op {
	case "load":
		err = s.unreachable(s.load(r))
	case "check":
		msg, err = s.check(r.YAML)
	case "report":
		msg, err = s.openReport()
	case "report-open":
		err = s.openCell(r.Lock, r.Column)
	case "setup":
		msg, err = s.startSetup(r)
	case "setup-form":
		msg, err = setupForm(r)
	case "setup-open":
		err = s.openSetupCell(r.Lock, r.Column)
	case "setup-cancel":
		s.cancelSetup()
		msg = &Message{Type: "setup-cancelling"}
	default:
		return nil, nil, false
	}
	return msg, err, true
}

// check answers a file's problems, each at its line (none: an empty list).
// The parse is long work, not begun once the session has ended.
func (s *session) check(yaml string) (*Message, error) {
	var errs, warns lineErrors
	if !s.hold.bulkTurnUnless(s.quit, func() {
		if _, errs = s.srv.parse(yaml); errs == nil {
			for _, w := range scenario.Warnings("scenario", []byte(yaml)) {
				warns = append(warns, lineError{Line: w.Line, Col: w.Col, Msg: w.Msg, Zh: w.Zh})
			}
		}
	}) {
		return nil, errEnded()
	}
	if errs == nil {
		errs = lineErrors{}
	}
	return &Message{Type: "checked", Errors: errs, Warnings: warns}, nil
}

// stepClient lets one client make its next move, within the step cap.
func (s *session) stepClient(client string) error {
	if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
		return err
	}
	var ok bool
	var err error
	s.turn(func() { ok, err = s.ls.StepClient(client) })
	if err == nil {
		err = lost(s.ls)
	}
	if err == nil {
		err = s.account()
	}
	if err != nil {
		return err
	}
	if !ok {
		return coded("no-move", map[string]any{"client": client}, "%s has no move to make now", client)
	}
	return nil
}

// inject applies a user's fault at the cursor.
func (s *session) inject(f scenario.Fault) error {
	if s.ls.Done() {
		return coded("run-over", nil, "the run is over: step back to inject a fault")
	}
	if err := scenario.CheckFault(s.ls.Scenario(), f); err != nil {
		return err
	}
	if err := s.ls.Inject(f); err != nil {
		return err // errorMessage: bad-fault, with the refusal in both languages
	}
	return nil
}

// reset goes back to step 0 with a seed (nil: the same seed), forgetting
// the user's actions.
func (s *session) reset(seed *int64) error {
	to := s.ls.Seed()
	if seed != nil {
		to = *seed
	}
	s.setPlaying(false)
	var err error
	s.bulkTurn(func() { err = s.ls.Reset(to) })
	if err != nil {
		return err
	}
	s.valid = 0
	return s.account()
}
