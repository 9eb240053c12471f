package server

import (
	"fmt"
	"math"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// session is one viewer's world. Every field below ops is owned by the
// session's goroutine (loop); other goroutines reach it only through do.
type session struct {
	id       string
	srv      *Server
	ops      chan func()
	quit     chan struct{}
	gone     chan struct{}
	quitOnce sync.Once
	used     atomic.Int64 // unix nanoseconds of the last request
	open     atomic.Int32 // connections attached
	cost     atomic.Int64 // the world's estimated memory in bytes (see account)

	ls      *lesson.Session
	custom  bool
	file    []catalogEntry // custom: the loaded file's scenarios
	conn    *conn
	sent    int // events the attached browser holds
	valid   int // of those, how many are still the log's prefix
	playing bool
	speed   float64
	ticker  *time.Ticker
	search  *search // the running search (explore.go), if any

	teachState // code view, chapters, challenges (teach.go)
}

func newSession(srv *Server, id string) *session {
	s := &session{id: id, srv: srv, ops: make(chan func(), 16), quit: make(chan struct{}), gone: make(chan struct{}), speed: 4}
	s.touch()
	go s.loop()
	return s
}

func (s *session) touch() { s.used.Store(time.Now().UnixNano()) }

// do queues f on the session's goroutine; false if the queue is full or the
// session is gone.
func (s *session) do(f func()) bool {
	select {
	case <-s.quit:
		return false
	default:
	}
	select {
	case s.ops <- f:
		return true
	default:
		return false
	}
}

// end tells the session's goroutine to stop; it does not wait.
func (s *session) end() { s.quitOnce.Do(func() { close(s.quit) }) }

// stop ends the session's goroutine and waits until its world is released.
func (s *session) stop() {
	s.end()
	<-s.gone
}

func (s *session) loop() {
	defer close(s.gone)
	defer s.safely(func() {
		s.cancelExplore()
		s.setPlaying(false)
		if s.ls != nil {
			s.ls.Close()
		}
		s.setCost(0)
	})
	for {
		var tick <-chan time.Time
		if s.ticker != nil {
			tick = s.ticker.C
		}
		select {
		case f := <-s.ops:
			if !s.safely(f) {
				return
			}
		case <-tick:
			if !s.safely(s.playTick) {
				return
			}
		case <-s.quit:
			return
		}
	}
}

// safely runs f on the session's goroutine. A panic in it ends this
// session only: the server logs it with its stack, the attached browser
// gets an error and close 1011, and the server forgets the session. It
// returns false after a panic.
func (s *session) safely(f func()) (ok bool) {
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		ok = false
		s.srv.opts.Logf("session %s: panic: %v\n%s", s.id, v, debug.Stack())
		s.srv.forget(s)
		if s.conn != nil {
			s.conn.enqueue(&Message{Type: "error", Error: fmt.Sprintf("internal error: %v. This session has ended: reload the page to start a new one", v)})
			s.conn.close(websocket.CloseInternalServerErr, "internal error: the session ended")
		}
		s.end()
		if s.ticker != nil {
			s.ticker.Stop()
			s.ticker = nil
		}
	}()
	f()
	return true
}

// attach makes c the browser of this session, replacing any other.
func (s *session) attach(c *conn) {
	if s.conn != nil && s.conn != c {
		s.conn.close(4000, "the session was opened in another tab")
	}
	s.conn, s.sent, s.valid = c, 0, 0
	c.enqueue(&Message{Type: "welcome", V: ProtocolVersion, Session: s.id, Catalog: s.srv.catalog,
		Faults: faultNames(), Limits: &s.srv.limits, Loaded: s.ls != nil, Real: s.srv.opts.RealRedis})
	if s.ls != nil {
		s.push(0)
	}
}

// detach forgets c if it is the attached browser.
func (s *session) detach(c *conn) {
	if s.conn == c {
		s.conn = nil
		s.setPlaying(false)
	}
}

func faultNames() []string {
	out := make([]string, len(sim.FaultKinds))
	for i, k := range sim.FaultKinds {
		out[i] = string(k)
	}
	return out
}

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
		c.enqueue(msg)
		return
	}
	s.push(r.ID)
}

// apply performs a request. It returns a message to send instead of the
// state, or nil to send the state.
func (s *session) apply(r *Request) (*Message, error) {
	switch r.Op {
	case "load":
		return nil, s.load(r)
	case "check":
		var errs lineErrors
		s.srv.turn(func() { _, errs = s.srv.parse(r.YAML) })
		if errs == nil {
			errs = lineErrors{}
		}
		return &Message{Type: "checked", Errors: errs}, nil
	}
	if s.ls == nil {
		return nil, coded("no-scenario", nil, "no scenario loaded: send load first")
	}
	switch r.Op {
	case "step":
		if err := s.stepN(max(r.N, 1)); err != nil {
			return nil, err
		}
	case "step-client":
		if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
			return nil, err
		}
		var ok bool
		var err error
		s.srv.turn(func() { ok, err = s.ls.StepClient(r.Client) })
		if err == nil {
			err = s.account()
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, coded("no-move", map[string]any{"client": r.Client}, "%s has no move to make now", r.Client)
		}
	case "back":
		s.setPlaying(false)
		if err := s.seek(s.ls.Cursor() - 1); err != nil {
			return nil, err
		}
	case "seek":
		if err := s.seek(*r.Step); err != nil {
			return nil, err
		}
	case "play":
		if r.Speed != 0 {
			s.speed = r.Speed
		}
		if r.Beats != nil {
			s.beats = *r.Beats
		}
		s.setPlaying(!s.ls.Run().Done())
	case "pause":
		s.setPlaying(false)
	case "inject":
		if s.ls.Run().Done() {
			return nil, coded("run-over", nil, "the run is over: step back to inject a fault")
		}
		if err := scenario.CheckFault(s.ls.Scenario(), *r.Fault); err != nil {
			return nil, err
		}
		if err := s.ls.Inject(*r.Fault); err != nil {
			return nil, &codedError{code: "bad-fault", args: map[string]any{"detail": err.Error()}, msg: err.Error()}
		}
	case "reset", "seed":
		seed := s.ls.Seed()
		if r.Seed != nil {
			seed = *r.Seed
		}
		s.setPlaying(false)
		var err error
		s.srv.turn(func() { err = s.ls.Reset(seed) })
		if err != nil {
			return nil, err
		}
		s.valid = 0
		if err := s.account(); err != nil {
			return nil, err
		}
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
	default:
		return nil, coded("unknown-op", map[string]any{"op": r.Op}, "unknown op %q (see docs/protocol.md)", r.Op)
	}
	return nil, nil
}

// recording is the session as a scenario file that replays this run.
func (s *session) recording() ([]byte, error) {
	rec, err := s.ls.Recording()
	if err != nil {
		return nil, err
	}
	return scenario.MarshalScenario(&rec)
}

func (s *session) capSteps(n int) error {
	if n > s.srv.limits.MaxSteps {
		return coded("step-cap", map[string]any{"max": s.srv.limits.MaxSteps}, "the session reached its cap of %d steps", s.srv.limits.MaxSteps)
	}
	return nil
}

// seek moves the cursor to step n: backwards it rebuilds the world, then
// replays in slices.
func (s *session) seek(n int) error {
	n = max(n, 0) // back at step 0 stays there
	if err := s.capSteps(n); err != nil {
		return err
	}
	return seekIn(s, s.ls, n)
}

// seekIn moves ls (the session's world, or one being loaded) to step n in
// slices, holding it to the budgets as it goes.
func seekIn(s *session, ls *lesson.Session, n int) error {
	if n < ls.Cursor() {
		var err error
		s.srv.turn(func() { err = ls.Seek(0) })
		if err != nil {
			return err
		}
	}
	return s.stepsOf(ls, func() (bool, error) {
		if ls.Cursor() >= n {
			return false, nil
		}
		return ls.Step()
	})
}

// steps runs step until it returns false or an error, in slices (see
// sliceSteps), checking the budgets after each slice.
func (s *session) steps(step func() (bool, error)) error { return s.stepsOf(s.ls, step) }

func (s *session) stepsOf(ls *lesson.Session, step func() (bool, error)) error {
	for slice := 0; ; slice++ {
		more, err := true, error(nil)
		turn := s.srv.turn
		if slice > 0 {
			turn = s.srv.bulkTurn
		}
		turn(func() {
			start := time.Now()
			for i := 0; i < sliceSteps && time.Since(start) < sliceTime; i++ {
				if more, err = step(); err != nil || !more {
					return
				}
			}
		})
		if err != nil {
			return err
		}
		if ls == s.ls {
			if err := s.account(); err != nil {
				return err
			}
		} else if c := cost(ls); c > s.srv.limits.MaxSessionMemory {
			return fmt.Errorf("the run stopped at step %d: it holds about %s, over a session's memory budget of %s",
				ls.Cursor(), mib(c), mib(s.srv.limits.MaxSessionMemory))
		}
		if !more {
			return nil
		}
	}
}

// load replaces the session's world with a scenario from the catalog or
// from YAML text, a seed and recorded actions, at a cursor.
func (s *session) load(r *Request) error {
	var sc *scenario.Scenario
	var file []catalogEntry
	custom := r.YAML != ""
	if custom {
		var f *scenario.File
		var errs lineErrors
		s.srv.turn(func() { f, errs = s.srv.parse(r.YAML) })
		if errs != nil {
			return errs
		}
		if len(f.Scenarios) == 0 {
			return coded("empty-file", nil, "the file holds no scenario")
		}
		sc = &f.Scenarios[0]
		if r.Scenario != "" {
			var ok bool
			if sc, ok = f.Find(r.Scenario); !ok {
				return coded("no-file-scenario", map[string]any{"id": r.Scenario}, "the file has no scenario %q", r.Scenario)
			}
		}
		for i := range f.Scenarios {
			file = append(file, s.srv.entry(&f.Scenarios[i], false))
		}
	} else {
		if r.Scenario == "" {
			return coded("load-what", nil, "load: give a scenario id or yaml")
		}
		found, ok := s.srv.find(r.Scenario)
		if !ok {
			return coded("no-builtin", map[string]any{"id": r.Scenario}, "no built-in scenario %q", r.Scenario)
		}
		cp := *found
		sc = &cp
	}
	sc, err := challengeScenario(r, sc)
	if err != nil {
		return err
	}
	if err := s.srv.checkCaps(sc); err != nil {
		return err
	}
	if r.Actions != nil {
		if err := scenario.CheckSchedule(sc, r.Actions); err != nil {
			return err
		}
		sc.Schedule = append([]scenario.Action(nil), r.Actions...)
	}
	seed := sc.Seed
	if r.Seed != nil {
		seed = *r.Seed
	}
	if err := s.srv.checkBudget(sc); err != nil {
		return err
	}
	var ls *lesson.Session
	s.srv.turn(func() { ls, err = lesson.NewSessionOn(sc, seed, s.srv.opts.Servers) })
	if err != nil {
		return err
	}
	if r.Step != nil {
		if err := seekIn(s, ls, *r.Step); err != nil {
			ls.Close()
			return err
		}
	}
	s.setPlaying(false)
	if s.ls != nil {
		s.ls.Close()
	}
	s.ls, s.custom, s.valid, s.file = ls, custom, 0, file
	s.challenge = r.Challenge
	return s.account()
}

// setPlaying starts or stops the play ticker.
func (s *session) setPlaying(on bool) {
	if s.ticker != nil {
		s.ticker.Stop()
		s.ticker = nil
	}
	s.playing = on
	if on {
		s.ticker = time.NewTicker(s.interval())
	}
}

// interval is the ticker period: at most 30 ticks a second, several steps
// stepN takes up to n steps within the session's step cap, in the
// engine's slices.
func (s *session) stepN(n int) error {
	return s.steps(func() (bool, error) {
		if n == 0 {
			return false, nil
		}
		n--
		if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
			return false, err
		}
		return s.ls.Step()
	})
}

// a tick beyond that.
func (s *session) interval() time.Duration {
	return max(time.Duration(float64(time.Second)/math.Min(s.speed, 30)), time.Millisecond)
}

func (s *session) playTick() {
	if s.ls == nil || !s.playing {
		return
	}
	n, beat, err := int(math.Ceil(s.speed/30)), false, error(nil)
	if s.beats && !s.challenge {
		beat, err = s.stepBeats(n)
	} else {
		err = s.stepN(n)
	}
	if err != nil || s.ls.Run().Done() || beat {
		s.setPlaying(false)
	}
	if err != nil && s.conn != nil {
		s.conn.enqueue(&Message{Type: "error", Error: err.Error()})
	}
	s.push(0)
}

// push sends the attached browser the events it lacks and the snapshot.
func (s *session) push(re int) {
	if s.conn == nil || s.ls == nil {
		return
	}
	log := s.ls.Log()
	from := min(s.sent, s.valid, len(log))
	evs := make([]wireEvent, 0, len(log)-from)
	for _, e := range log[from:] {
		evs = append(evs, wireEvent{Event: e, Text: e.String()})
	}
	s.sent, s.valid = len(log), len(log)
	s.conn.enqueue(&Message{Type: "state", Re: re, From: &from, Events: evs, Snap: s.snapshot()})
}

func (s *session) snapshot() *Snapshot {
	sc, w := s.ls.Scenario(), s.ls.Run().World
	nodes := s.ls.Nodes()
	snap := &Snapshot{
		Scenario: sc.ID, Title: sc.Title, Lesson: sc.Lesson, Custom: s.custom,
		Seed: s.ls.Seed(), Step: s.ls.Cursor(), T: int64(w.Now()), Ended: s.ls.Run().Done(),
		Verdicts: nonNil(s.ls.Run().Verdicts()), Expect: nonNil(s.srv.expect(sc)), RealWhy: s.srv.realWhy(sc),
		Clients: w.ClientNames(), Nodes: nodes, Pending: nonNil(s.ls.Pending()),
		Actions: append([]scenario.Action{}, s.ls.Actions()...), Playing: s.playing, Speed: s.speed,
		Events: len(s.ls.Log()), OffScript: s.ls.Run().OffScript(), File: s.file,
	}
	s.teach(snap)
	return snap
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

// lineErrors are the errors of a scenario file; it is an error itself.
type lineErrors []lineError

func (l lineErrors) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		if e.Line > 0 {
			parts[i] = fmt.Sprintf("line %d: %s", e.Line, e.Msg)
		} else {
			parts[i] = e.Msg
		}
	}
	return strings.Join(parts, "; ")
}
