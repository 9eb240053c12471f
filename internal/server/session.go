package server

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// session is one viewer's world. Every field below ops is owned by the
// session's goroutine (loop); other goroutines reach it only through do.
type session struct {
	id   string
	srv  *Server
	ops  chan func()
	quit chan struct{}
	gone chan struct{}
	used atomic.Int64 // unix nanoseconds of the last request
	open atomic.Int32 // connections attached

	ls      *lesson.Session
	custom  bool
	file    []catalogEntry // custom: the loaded file's scenarios
	conn    *conn
	sent    int // events the attached browser holds
	valid   int // of those, how many are still the log's prefix
	playing bool
	speed   float64
	ticker  *time.Ticker
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

// stop ends the session's goroutine and releases its world.
func (s *session) stop() {
	select {
	case <-s.quit:
	default:
		close(s.quit)
	}
	<-s.gone
}

func (s *session) loop() {
	defer close(s.gone)
	defer func() {
		s.setPlaying(false)
		if s.ls != nil {
			s.ls.Close()
		}
	}()
	for {
		var tick <-chan time.Time
		if s.ticker != nil {
			tick = s.ticker.C
		}
		select {
		case f := <-s.ops:
			f()
		case <-tick:
			s.playTick()
		case <-s.quit:
			return
		}
	}
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
	lim := s.srv.limits
	switch r.Op {
	case "load":
		return nil, s.load(r)
	case "check":
		_, errs := s.srv.parse(r.YAML)
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
		n := r.N
		if n <= 0 {
			n = 1
		}
		if n > lim.MaxSteps {
			return nil, coded("n-cap", map[string]any{"n": n, "max": lim.MaxSteps}, "step: n %d is over the cap of %d steps", n, lim.MaxSteps)
		}
		for i := 0; i < n; i++ {
			if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
				return nil, err
			}
			ok, err := s.ls.Step()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
		}
	case "step-client":
		if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
			return nil, err
		}
		if r.Client == "" {
			return nil, coded("which-client", nil, "step-client: which client? (client is empty)")
		}
		ok, err := s.ls.StepClient(r.Client)
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
		if r.Step == nil {
			return nil, coded("seek-missing", nil, "seek: step is missing")
		}
		if err := s.seek(*r.Step); err != nil {
			return nil, err
		}
	case "play":
		speed := r.Speed
		if speed <= 0 {
			speed = s.speed
		}
		if speed > lim.MaxSpeed || math.IsNaN(speed) {
			return nil, coded("speed-cap", map[string]any{"speed": speed, "max": lim.MaxSpeed}, "play: speed %g is over the cap of %g steps per second", speed, lim.MaxSpeed)
		}
		s.speed = speed
		s.setPlaying(!s.ls.Run().Done())
	case "pause":
		s.setPlaying(false)
	case "inject":
		if r.Fault == nil {
			return nil, coded("fault-missing", nil, "inject: fault is missing")
		}
		if s.ls.Run().Done() {
			return nil, coded("run-over", nil, "the run is over: step back to inject a fault")
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
		if err := s.ls.Reset(seed); err != nil {
			return nil, err
		}
		s.valid = 0
	case "export-yaml":
		b, err := s.recording()
		if err != nil {
			return nil, err
		}
		return &Message{Type: "yaml", Name: s.ls.Scenario().ID + "-recording.yaml", Text: string(b)}, nil
	case "sync":
		s.sent = 0
	default:
		return nil, coded("unknown-op", map[string]any{"op": r.Op}, "unknown op %q (see docs/protocol.md)", r.Op)
	}
	return nil, nil
}

// recording is the session as a scenario file that replays this run.
func (s *session) recording() ([]byte, error) {
	rec := s.ls.Recording()
	return scenario.MarshalScenario(&rec)
}

func (s *session) capSteps(n int) error {
	if n > s.srv.limits.MaxSteps {
		return coded("step-cap", map[string]any{"max": s.srv.limits.MaxSteps}, "the session reached its cap of %d steps", s.srv.limits.MaxSteps)
	}
	return nil
}

func (s *session) seek(n int) error {
	if err := s.capSteps(n); err != nil {
		return err
	}
	return s.ls.Seek(n)
}

// load replaces the session's world with a scenario from the catalog or
// from YAML text, a seed and recorded actions, at a cursor.
func (s *session) load(r *Request) error {
	var sc *scenario.Scenario
	var file []catalogEntry
	custom := r.YAML != ""
	if custom {
		f, errs := s.srv.parse(r.YAML)
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
	if err := s.srv.checkCaps(sc); err != nil {
		return err
	}
	if r.Actions != nil {
		sc.Schedule = append([]scenario.Action(nil), r.Actions...)
	}
	seed := sc.Seed
	if r.Seed != nil {
		seed = *r.Seed
	}
	ls, err := lesson.NewSessionOn(sc, seed, s.srv.opts.Servers)
	if err != nil {
		return err
	}
	if r.Step != nil {
		if err := s.srv.capStepsOf(*r.Step); err != nil {
			ls.Close()
			return err
		}
		if err := ls.Seek(*r.Step); err != nil {
			ls.Close()
			return err
		}
	}
	s.setPlaying(false)
	if s.ls != nil {
		s.ls.Close()
	}
	s.ls, s.custom, s.valid, s.file = ls, custom, 0, file
	return nil
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
// a tick beyond that.
func (s *session) interval() time.Duration {
	return time.Duration(float64(time.Second) / math.Min(s.speed, 30))
}

func (s *session) playTick() {
	if s.ls == nil || !s.playing {
		return
	}
	n := int(math.Ceil(s.speed / 30))
	for i := 0; i < n; i++ {
		if s.capSteps(s.ls.Cursor()+1) != nil {
			s.setPlaying(false)
			break
		}
		ok, err := s.ls.Step()
		if err != nil || !ok {
			s.setPlaying(false)
			break
		}
	}
	if s.ls.Run().Done() {
		s.setPlaying(false)
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
	return &Snapshot{
		Scenario: sc.ID, Title: sc.Title, Lesson: sc.Lesson, Custom: s.custom,
		Seed: s.ls.Seed(), Step: s.ls.Cursor(), T: int64(w.Now()), Ended: s.ls.Run().Done(),
		Verdicts: nonNil(s.ls.Run().Verdicts()), Expect: nonNil(s.srv.expect(sc)), RealWhy: s.srv.realWhy(sc),
		Clients: w.ClientNames(), Nodes: nodes, Pending: nonNil(s.ls.Pending()),
		Actions: append([]scenario.Action{}, s.ls.Actions()...), Playing: s.playing, Speed: s.speed,
		Events: len(s.ls.Log()), File: s.file,
	}
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
