package server

import (
	"encoding/json"
	"slices"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/lesson"
)

// How a session keeps up with its room: the teacher's run published as
// the room's position, followers sent it (classshare.go), and the class and
// state messages sent when the room changes.

// pageOfRun is what a class.Position carries for the page besides the
// run: what the teacher's browser was shown with it, which a following
// student's browser is shown too, and the run as the page gets it (the
// teacher's shared events and the snapshot a student is shown).
type pageOfRun struct {
	custom   bool
	file     []catalogEntry
	builtin  string
	live     string // the service of a run in real time on a live server (classlive.go)
	chapters json.RawMessage
	events   []json.RawMessage // classShare's: never changed once published
	snap     *Snapshot         // never changed once published: a student's message copies it
}

// classPublish makes the teacher's run the room's position, when it moved:
// every student who follows is sent it.
func (s *session) classPublish() {
	seat := s.seat
	if seat != nil && seat.teacher && s.ls == nil && s.live != nil {
		s.classPublishLive(seat)
		return
	}
	if seat == nil || !seat.teacher || s.ls == nil {
		return
	}
	events, ok := s.shareRun(seat)
	if !ok {
		return // the session ended
	}
	hid := s.hidSent
	snap := s.snapshot()
	s.hidSent = hid
	// The run's lists grow on the teacher's goroutine as it steps: the
	// students' messages read copies.
	snap.Verdicts, snap.Kept = slices.Clone(snap.Verdicts), slices.Clone(snap.Kept)
	seat.room.Publish(s, &class.Position{Scenario: s.ls.Scenario(), Seed: s.ls.Seed(), Actions: slices.Clone(s.ls.Actions()),
		Cursor: s.ls.Cursor(), Challenge: s.challenge, Playing: s.playing,
		Page: pageOfRun{custom: s.custom, file: s.file, builtin: s.builtin, chapters: s.chapters.json, events: events, snap: snap}})
}

// classTick runs when the room pokes the session: it sends the browser
// what changed, and a student who follows is sent the teacher's new
// position.
func (s *session) classTick() {
	seat := s.seat
	if seat == nil {
		return
	}
	if s.classGone() {
		why := "teacher-moved"
		if ended := seat.room.Ended(); ended != "" {
			why = ended
		} else if !seat.teacher {
			why = "left" // the member rejoined from another session
		}
		s.unseat()
		if s.conn != nil {
			s.conn.enqueue(&Message{Type: "class", Class: &classView{Code: seat.room.Code(), Ended: why}})
		}
		s.reshow()
		return
	}
	if !seat.teacher && seat.following {
		s.classFollow()
	}
	if m := s.classMessage(false); m != nil && s.conn != nil {
		s.conn.enqueue(m)
	}
	s.queueTick()
	s.reshow()
}

// classHides reports whether the room hides what gives the answer away
// from this session: a student's, while the teacher hides. Its state
// messages then leave out the lesson's paragraph and the expected verdict
// until the run ends (snapshot). The chapters stay: they travel once per
// lesson, whole, and the page hides those the run has not reached.
func (s *session) classHides() bool {
	seat := s.seat
	return seat != nil && !seat.teacher && seat.room.Hides()
}

// reshow sends the state again when what the room hides from this session
// changed since the last state message: the teacher stopped or started
// hiding, or the session left the room.
func (s *session) reshow() {
	if (s.ls == nil && s.shown == nil) || s.conn == nil || s.classHides() == s.hidSent {
		return
	}
	s.push(0)
}

// classFollow sends a following student the teacher's position when her
// browser is not there yet. Her session holds no world of it: a world of
// her own (one she had before she joined, or her copy from roaming) is
// freed.
func (s *session) classFollow() {
	seat := s.seat
	p := seat.room.Position()
	if p == nil || p.Ver == seat.posVer {
		return
	}
	seat.posVer = p.Ver
	if s.ls != nil {
		s.leaveRun(p)
	}
	if s.live != nil { // her own live run ends: she follows the class's
		s.stopLive()
		s.held, s.sent, s.valid = nil, 0, 0
	}
	s.shown = p
	s.push(0)
}

// followTo makes the session's world the run at position p (a teacher's
// who takes a room over, a student's copy to roam in, a former student's
// own world): a new world when the scenario or seed differs or the
// session holds none, else the same one stepped or replayed to the
// cursor, in the engine's slices and within the budgets.
func (s *session) followTo(p *class.Position) error {
	s.setPlaying(false)
	page, _ := p.Page.(pageOfRun)
	fresh := s.ls == nil || s.ls.Scenario() != p.Scenario || s.ls.Seed() != p.Seed
	if fresh {
		var ls *lesson.Session
		var err error
		if !s.hold.bulkTurnUnless(s.quit, func() { ls, err = lesson.NewSession(p.Scenario, lesson.Config{Seed: p.Seed, Servers: s.servers()}) }) {
			return errEnded()
		}
		if err != nil {
			return err
		}
		keep := 0
		if s.ls != nil {
			s.ls.Close()
		} else if s.shown != nil { // the browser holds events of the class's run: as many as p's run shares stay
			keep = sharedPrefix(s.held[:min(s.sent, s.valid, len(s.held))], page.events)
		}
		s.ls, s.valid = ls, keep
	}
	s.shown, s.held = nil, nil
	d := lesson.Diverge(s.ls.Actions(), p.Actions)
	var err error
	if !s.hold.bulkTurnUnless(s.quit, func() { err = s.ls.Follow(p.Actions) }) {
		err = errEnded()
	} else if err == nil {
		err = seekIn(s, s.ls, p.Cursor)
	}
	if !fresh {
		s.valid = min(s.valid, lesson.EventsBefore(s.ls.Log(), d))
	}
	s.custom, s.file, s.challenge, s.builtin = page.custom, page.file, p.Challenge, page.builtin
	s.chapters = chapterCache{sc: p.Scenario, seed: p.Seed, json: page.chapters}
	if err != nil {
		return err
	}
	return s.account()
}

// classMessage is the class message for this session; with force it is
// made even when nothing changed since the last (nil then otherwise).
func (s *session) classMessage(force bool) *Message {
	seat := s.seat
	var l *class.Look
	if seat.teacher {
		l = seat.room.Look(nil, &seat.seen, force)
	} else {
		l = seat.room.Look(seat.m, &seat.seen, force)
	}
	if l == nil {
		return nil
	}
	v := &classView{Code: l.Code, Following: seat.teacher || seat.following, Away: l.Away, View: l.View, Hide: l.Hide,
		Question: (*questionView)(l.Question), Counts: (*classCounts)(l.Counts), Refused: (*classRefusal)(l.Refused)}
	for _, q := range l.History {
		v.History = append(v.History, (*questionView)(q))
	}
	if seat.teacher {
		v.Role, v.Link, v.QR, v.Key = "teacher", seat.link, seat.qr, seat.key
		seat.key = ""
	} else {
		v.Role, v.Name, v.Token = "student", seat.m.Name(), seat.m.Token()
	}
	return &Message{Type: "class", Class: v}
}

// classAttached and classDetached tell the room that the session's socket
// came or went: a teacher's leaving starts the room's grace, a student's
// changes the counts.
func (s *session) classAttached() {
	seat := s.seat
	if seat == nil {
		return
	}
	if s.classGone() {
		s.classTick()
		return
	}
	if seat.teacher {
		seat.queueVer = -1 // the reconnected page is sent the room's queue
		seat.room.TeacherBack()
		s.queueTick()
	} else {
		seat.room.Recount()
	}
	seat.seen = class.Seen{}
	if !seat.teacher && seat.following {
		seat.posVer = -1 // a reconnecting phone catches up at once
		s.classFollow()
	}
	if s.conn != nil {
		s.conn.enqueue(s.classMessage(true))
	}
}

func (s *session) classDetached() {
	seat := s.seat
	if seat == nil || s.classGone() {
		return
	}
	if seat.teacher {
		seat.room.TeacherAway()
		return
	}
	seat.room.Recount()
}

// enqueueRaw queues an encoded message as enqueue does.
func (c *conn) enqueueRaw(b []byte) {
	select {
	case <-c.done:
	case c.send <- b:
	default:
		c.close(websocket.ClosePolicyViolation, "too slow: the send queue is full")
	}
}
