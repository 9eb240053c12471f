package server

import (
	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/fact"
)

// The edge of the questions queued for later steps of the teacher's lesson
// (docs/protocol.md, Classes; the room keeps them, internal/class,
// queue.go): class-queue keeps one for a step ahead of the cursor, and
// when the teacher's run gets there the question is asked by itself, as
// class-ask asks it (on the projector and every student's screen), and
// play pauses for it. The queue outlives the teacher's socket and session:
// a teacher who comes back with the key finds it. The teacher's page gets
// it in a queue message, a remote in its class message.

// queuedView is a queued question as the pages see it: its step and kind,
// and a free question's text.
type queuedView struct {
	Step int    `json:"step"`
	Kind string `json:"kind"`
	Text string `json:"text,omitempty"`
}

func init() {
	ops["class-queue"] = true
	ops["class-unqueue"] = true
	remoteOps["class-queue"] = true
	remoteOps["class-unqueue"] = true
}

// queueOp applies class-queue and class-unqueue for the teacher; handled
// is false for other requests.
func (s *session) queueOp(r *Request) (msg *Message, err error, handled bool) {
	if r.Op != "class-queue" && r.Op != "class-unqueue" {
		return nil, nil, false
	}
	seat := s.seat
	if seat == nil {
		return nil, coded("no-class", map[string]any{"code": ""}, "you are not in a class"), true
	}
	if !seat.teacher {
		return nil, coded("not-teacher", map[string]any{"op": r.Op}, "only the teacher may %s", r.Op[len("class-"):]), true
	}
	if s.ls == nil {
		return nil, coded("no-scenario", nil, "no scenario loaded: send load first"), true
	}
	if r.Step == nil {
		return nil, badArg(r.Op, "step", fact.Say("server.step-is-missing")), true
	}
	switch {
	case r.Op == "class-unqueue":
		err = seat.room.Unqueue(s, s.ls.Scenario(), *r.Step)
	case r.Ask == nil:
		err = badArg("class-queue", "ask", fact.Say("server.ask-is-missing"))
	default:
		err = seat.room.Enqueue(s, s.ls.Scenario(), s.ls.Cursor(), s.srv.limits.MaxSteps, *r.Step, class.Ask(*r.Ask))
	}
	if err != nil {
		return nil, err, true
	}
	return s.queueMessage(), nil, true
}

// askQueued asks the question the room queued for the step the teacher's
// run has reached (class.Room.TakeDue) and pauses play for it. It runs
// after each of the teacher's pushes; another lesson empties the queue.
func (s *session) askQueued() {
	seat := s.seat
	if seat == nil || !seat.teacher || s.ls == nil {
		return
	}
	a, ok := seat.room.TakeDue(s, s.ls.Scenario(), s.ls.Cursor())
	s.queueTick() // the page sees the queue change before the question
	if !ok {
		return
	}
	ask := askRequest(a)
	err := s.classAsk(&ask)
	if err != nil && s.conn != nil {
		s.conn.enqueue(errorMessage(0, err))
	}
	if err == nil && s.playing {
		s.setPlaying(false)
		s.push(0)
	}
}

// queueMessage is the teacher's page's queue message, the room's queue as
// it is now; the seat remembers that its page was sent it.
func (s *session) queueMessage() *Message {
	items, ver := s.seat.room.Queue()
	s.seat.queueVer = ver
	return &Message{Type: "queue", Queue: queueView(items)}
}

// queueTick sends the teacher's page the room's queue when it changed
// since the page was last sent it.
func (s *session) queueTick() {
	seat := s.seat
	if seat == nil || !seat.teacher || s.conn == nil {
		return
	}
	if _, ver := seat.room.Queue(); ver != seat.queueVer {
		s.conn.enqueue(s.queueMessage())
	}
}

// queueView is a queue as the pages see it.
func queueView(items []class.Queued) []queuedView {
	out := []queuedView{}
	for _, q := range items {
		v := queuedView{Step: q.Step, Kind: q.Ask.Kind}
		if q.Ask.Kind == class.Free {
			v.Text = q.Ask.Text
		}
		out = append(out, v)
	}
	return out
}
