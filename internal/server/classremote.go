package server

import (
	"sync/atomic"
	"time"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/qr"
	"github.com/lockstep/lockstep/internal/sim"
)

// The teacher's remote (docs/protocol.md, Classes; internal/class,
// remote.go): a session that holds the teacher's key and no run of its
// own. It sends the teacher's requests (step, back, play, pause, class-ask,
// class-reveal, class-dismiss, class-hide, class-play); each is handed to
// the teacher's session, applied there as the teacher's own (the
// projector shows it, the students follow), and answered to the remote
// with its class message: the room as the teacher sees it and the run's
// line (remoteRun).

// remoteOps are the requests a remote sends for the teacher.
var remoteOps = map[string]bool{"step": true, "back": true, "play": true, "pause": true,
	"class-ask": true, "class-reveal": true, "class-dismiss": true, "class-hide": true, "class-play": true}

func init() {
	ops["class-remote"] = true
	ops["class-remote-link"] = true
}

// remoteWait is how long a remote waits for the teacher's session to
// apply its request (a question's copies of the run take the longest).
const remoteWait = 15 * time.Second

// remoteState is what a session keeps as a remote, or as a teacher for
// its remotes.
type remoteState struct {
	remote *remoteSeat
	// runLine is the teacher's run as its remotes show it, written by the
	// teacher's goroutine (remoteNotify), read by the remotes'. The
	// questions queued are the room's (class.Room.Queue).
	runLine atomic.Pointer[remoteRun]
}

// remoteSeat is a remote's place in a room.
type remoteSeat struct {
	room  *class.Room
	seen  class.Seen
	sent  remoteRun // the run's line the last class message showed
	sentQ int       // the version of the room's queue it showed
	key   string    // the teacher's key, until a class message has carried it (a pairing)
	told  bool      // the page was told the room ended (its next request is refused no-class)
}

// remoteRun is the line of the teacher's run a remote shows: what the
// projector shows of it, no more.
type remoteRun struct {
	Scenario  string   `json:"scenario"`
	Title     sim.Text `json:"title"`
	Step      int      `json:"step"`
	Ended     bool     `json:"ended"`
	Playing   bool     `json:"playing"`
	Challenge bool     `json:"challenge,omitempty"`
	Say       sim.Text `json:"say"`  // the latest narration line the run has reached (empty before the first)
	Says      int      `json:"says"` // narration lines the run has reached
}

func (a remoteRun) same(b remoteRun) bool {
	return a.Scenario == b.Scenario && a.Title.En == b.Title.En && a.Step == b.Step && a.Ended == b.Ended &&
		a.Playing == b.Playing && a.Challenge == b.Challenge && a.Say.En == b.Say.En && a.Say.Zh == b.Say.Zh && a.Says == b.Says
}

// remotePairing is the answer to class-remote-link: the remote's one-time
// link and its QR code.
type remotePairing struct {
	Link    string   `json:"link"`
	QR      []string `json:"qr"`
	Seconds int      `json:"seconds"` // how long the link lets a remote in
}

// remoteOp applies the remote's requests and class-remote-link; handled
// is false for the requests of a session that is no remote.
func (s *session) remoteOp(r *Request) (msg *Message, err error, handled bool) {
	switch {
	case r.Op == "class-remote":
		if err := s.remoteJoin(r.Code, r.Key); err != nil {
			return nil, err, true
		}
		return s.remoteMessage(true), nil, true
	case r.Op == "class-remote-link":
		return s.remoteLink(r.Origin, r.Key)
	case s.remote == nil:
		return s.queueOp(r)
	}
	rs := s.remote
	if r.Op == "class-leave" {
		s.remoteLeave()
		return &Message{Type: "class", Class: &classView{Code: rs.room.Code(), Role: "remote", Ended: "left"}}, nil, true
	}
	if !rs.room.IsRemote(s) {
		s.remote = nil
		return nil, coded("no-class", map[string]any{"code": rs.room.Code()}, "the class has ended"), true
	}
	if !remoteOps[r.Op] {
		return nil, coded("remote-op", map[string]any{"op": r.Op}, "a remote drives the teacher's run: %s is not one of its requests", r.Op), true
	}
	if err := s.onTeacher(rs.room, func(t *session) error { return t.remoteApply(rs.room, r) }); err != nil {
		return nil, err, true
	}
	return s.remoteMessage(true), nil, true
}

// onTeacher runs f on the goroutine of the room's teacher's session and
// waits for it, at most remoteWait.
func (s *session) onTeacher(rm *class.Room, f func(t *session) error) error {
	t, ok := rm.Teacher().(*session)
	if !ok || t == s {
		return coded("remote-teacher", nil, "this page teaches the class: open the remote on another device")
	}
	done := make(chan error, 1)
	if !t.do(func() { done <- f(t) }) {
		return coded("teacher-busy", nil, "the teacher's page is busy or gone: try again")
	}
	timer := time.NewTimer(remoteWait)
	defer timer.Stop()
	select {
	case err := <-done:
		return err
	case <-timer.C:
		return coded("teacher-busy", nil, "the teacher's page is busy or gone: try again")
	}
}

// remoteJoin makes this session a remote of the room with the code, given
// the teacher's key or the room's one-time pairing secret.
func (s *session) remoteJoin(code, key string) error {
	addr, now := s.guessAddr(), time.Now()
	rm, err := s.srv.findRoom(code, addr, func(r *class.Room) bool { return r.CheckKey(key) || r.HoldsPair(key, now) })
	if err != nil {
		return err
	}
	given := "" // the teacher's key, for a remote that paired
	if !rm.CheckKey(key) {
		if given = rm.UsePair(key, now); given == "" {
			s.srv.misses.miss(addr)
			return coded("bad-key", nil, "that is not this class's teacher link")
		}
	}
	if s.seat != nil {
		return coded("remote-in-class", nil, "this page is in a class: a remote is a page of its own")
	}
	if s.remote != nil && s.remote.room != rm {
		s.remoteLeave()
	}
	if err := rm.AddRemote(s); err != nil {
		return err
	}
	s.remote = &remoteSeat{room: rm, key: given, sentQ: -1}
	// The teacher's run's line, made now: the teacher's session makes it
	// only while the room has remotes.
	// A pairing's QR code leaves the projector once spent.
	return s.onTeacher(rm, func(t *session) error {
		t.runLine.Store(nil)
		t.remoteNotify()
		if given != "" && t.conn != nil {
			t.conn.enqueue(&Message{Type: "remote-paired"})
		}
		return nil
	})
}

// remoteLeave takes the session out of its room's remotes.
func (s *session) remoteLeave() {
	if s.remote != nil {
		s.remote.room.DropRemote(s)
		s.remote = nil
	}
}

// remoteLink opens a one-time pairing for the teacher's room: a link,
// ORIGIN/remote#CODE.SECRET, and its QR code, which the projector may
// show: the secret lets one remote in, within class.PairFor.
func (s *session) remoteLink(origin, key string) (*Message, error, bool) {
	seat := s.seat
	if seat == nil || !seat.teacher {
		return nil, coded("not-teacher", map[string]any{"op": "class-remote-link"}, "only the teacher may open a remote"), true
	}
	o, err := joinLink(origin)
	if err != nil {
		return nil, err, true
	}
	secret, err := seat.room.Pair(key, time.Now())
	if err != nil {
		return nil, err, true
	}
	link := o + "/remote#" + seat.room.Code() + "." + secret
	p := &remotePairing{Link: link, QR: qr.Rows(link), Seconds: int(class.PairFor.Seconds())}
	return &Message{Type: "remote-link", Pairing: p}, nil, true
}

// remoteApply applies a remote's request on the teacher's session, as if
// the teacher's page had sent it: the projector gets the state or the
// class message.
func (s *session) remoteApply(rm *class.Room, r *Request) error {
	if s.seat == nil || !s.seat.teacher || s.seat.room != rm || s.classGone() {
		return coded("no-class", map[string]any{"code": rm.Code()}, "the class has ended")
	}
	before := -1
	if s.ls != nil {
		before = s.ls.Cursor()
	}
	msg, err := s.apply(r)
	switch {
	case msg != nil && s.conn != nil:
		s.conn.enqueue(msg)
	case err == nil || (s.ls != nil && s.ls.Cursor() != before):
		s.push(0)
	}
	s.remoteNotify()
	return err
}

// remoteNotify makes the teacher's run's line anew and tells the remotes
// when it changed.
func (s *session) remoteNotify() {
	s.askQueued()
	seat := s.seat
	if seat == nil || !seat.teacher || s.ls == nil || !seat.room.HasRemotes() {
		return
	}
	sc := s.ls.Scenario()
	run := &remoteRun{Scenario: sc.ID, Title: sc.Title, Step: s.ls.Cursor(), Ended: s.ls.Done(), Playing: s.playing, Challenge: s.challenge}
	for _, e := range s.ls.Log() { // the log ends at the cursor
		if e.Kind == sim.KindSay && e.Say != nil {
			run.Say, run.Says = sim.Text{En: e.Say.En, Zh: e.Say.Zh}, run.Says+1
		}
	}
	if old := s.runLine.Load(); old != nil && old.same(*run) {
		return
	}
	s.runLine.Store(run)
	seat.room.PokeRemotes()
}

// remoteMessage is the remote's class message; with force it is made even
// when nothing changed since the last (nil then otherwise).
func (s *session) remoteMessage(force bool) *Message {
	rs := s.remote
	var run remoteRun
	if t, ok := rs.room.Teacher().(*session); ok {
		if p := t.runLine.Load(); p != nil {
			run = *p
		}
	}
	items, ver := rs.room.Queue()
	moved := !run.same(rs.sent) || ver != rs.sentQ
	l := rs.room.Look(nil, &rs.seen, force || moved)
	if l == nil {
		return nil
	}
	rs.sent, rs.sentQ = run, ver
	queue := queueView(items)
	v := &classView{Code: l.Code, Role: "remote", Following: true, Away: l.Away, Hide: l.Hide,
		Question: (*questionView)(l.Question), Counts: (*classCounts)(l.Counts), Key: rs.key}
	rs.key = ""
	return &Message{Type: "class", Class: v, Run: &run, Queue: queue}
}

// remoteTick runs when the room pokes a remote: it sends what changed, or
// that the room ended.
func (s *session) remoteTick() {
	rs := s.remote
	if rs == nil {
		return
	}
	if !rs.room.IsRemote(s) {
		if rs.told {
			return
		}
		rs.told = true
		why := rs.room.Ended()
		if why == "" {
			why = "left"
		}
		if s.conn != nil {
			s.conn.enqueue(&Message{Type: "class", Class: &classView{Code: rs.room.Code(), Role: "remote", Ended: why}})
		}
		return
	}
	if m := s.remoteMessage(false); m != nil && s.conn != nil {
		s.conn.enqueue(m)
	}
}

// remoteAttached sends a remote's reconnected page its class message.
func (s *session) remoteAttached() {
	if s.remote == nil || s.conn == nil {
		return
	}
	if !s.remote.room.IsRemote(s) {
		s.remoteTick()
		return
	}
	s.remote.seen = class.Seen{}
	s.conn.enqueue(s.remoteMessage(true))
}
