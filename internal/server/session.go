package server

import (
	"fmt"
	"runtime/debug"
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
	addr     string // the client address that made it (clients.go)
	srv      *Server
	ops      chan func()
	quit     chan struct{}
	gone     chan struct{}
	quitOnce sync.Once
	used     atomic.Int64 // unix nanoseconds of the last request
	open     atomic.Int32 // connections attached
	cost     atomic.Int64 // the world's estimated memory in bytes (see account)
	// searchCost is what its running search may hold, counted in the
	// server's total from the search's start to its end (reserveSearch).
	searchCost atomic.Int64

	ls      *lesson.Session
	live    *liveState // a service's lesson in real time, while ls is nil (live.go)
	custom  bool
	file    []catalogEntry // custom: the loaded file's scenarios
	conn    *conn
	sent    int // events the attached browser holds
	valid   int // of those, how many are still the log's prefix
	playing bool
	speed   float64
	ticker  *time.Ticker
	search  *search           // the running search (explore.go), if any
	setup   *setupJob         // the card for a setup (setup.go), running or done
	hold    hold              // its place on the engine's slots (budget.go)
	acts    []scenario.Action // the recorded actions the attached browser holds (push.go)
	reserve int64             // the memory its run may come to hold, counted from its load (admit)

	teachState // code view, chapters, challenges (teach.go)
	classState // its place in a class (class.go)

	remoteState // a teacher's remote, or a teacher's remotes (classremote.go)
}

func newSession(srv *Server, id string) *session {
	s := &session{id: id, srv: srv, ops: make(chan func(), 16), quit: make(chan struct{}), gone: make(chan struct{}), speed: 4}
	s.hold.srv = srv
	s.nudge = make(chan struct{}, 1)
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

// doWithin is do for a hello, which must not be refused because the
// session's queue is full for a moment: a browser dropped for flooding
// reconnects to a session whose queue still holds what its old socket
// asked. It waits up to d for room (the session works through its queue
// meanwhile); false when the session ended or d passed (d <= 0: do).
func (s *session) doWithin(f func(), d time.Duration) bool {
	if s.do(f) {
		return true
	}
	if d <= 0 {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.quit:
		return false
	case s.ops <- f:
		return true
	case <-t.C:
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
		s.cancelSetup()
		s.setPlaying(false)
		s.classLeave("gone")
		s.remoteLeave()
		s.stopLive()
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
		case <-s.liveChanged():
			if !s.safely(s.liveTick) {
				return
			}
		case <-s.liveDone():
			if !s.safely(s.liveEnd) {
				return
			}
		case <-s.nudge:
			if !s.safely(func() { s.classTick(); s.remoteTick() }) {
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
			s.conn.enqueue(errorMessage(0, coded("internal", map[string]any{"detail": fmt.Sprint(v)}, "internal error: %v. This session has ended: reload the page to start a new one", v)))
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
		Faults: faultRows(s.srv.opts.RealRedis != ""), Setbacks: sim.SetbackMarks, Limits: &s.srv.limits, Loaded: s.ls != nil || s.shown != nil, Real: s.srv.opts.RealRedis})
	if s.ls != nil || s.live != nil || s.shown != nil {
		s.push(0)
	}
	s.classAttached()
	s.remoteAttached()
}

// detach forgets c if it is the attached browser.
func (s *session) detach(c *conn) {
	if s.conn == c {
		s.conn = nil
		s.setPlaying(false)
		s.classDetached()
	}
}

// faultRows are the fault kinds of sim.Actions as the welcome message
// declares them; on real Redis servers (onReal) the menu leaves out what
// it offers on embedded Redis only.
func faultRows(onReal bool) []faultRow {
	var out []faultRow
	for _, a := range sim.Actions {
		if !a.Fault {
			continue
		}
		out = append(out, faultRow{Do: a.Do, Target: string(a.Target), Amount: string(a.Amount), Field: a.Amount.Field(),
			Required: a.Required, Menu: a.Menu && !(onReal && a.MenuEmbedded), DefaultMS: a.Default.Milliseconds(), Applies: string(a.Applies)})
	}
	return out
}
