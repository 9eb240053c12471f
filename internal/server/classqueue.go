package server

import (
	"errors"
	"slices"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Questions queued for later steps of the teacher's lesson (docs/protocol.md,
// Classes): class-queue keeps one for a step ahead of the cursor, and when
// the teacher's run gets there the question is asked by itself, as
// class-ask asks it (on the projector and every student's screen), and
// play pauses for it. The queue is the teacher's session's, for the
// lesson loaded: another lesson empties it. The teacher's page gets it in
// a queue message, a remote in its run's line.

// maxQueued is how many questions a teacher may queue at once.
const maxQueued = 20

// queued is one question waiting for its step.
type queued struct {
	step int
	ask  askRequest
}

// queuedView is a queued question as the pages see it: its step and kind,
// and a free question's text.
type queuedView struct {
	Step int    `json:"step"`
	Kind string `json:"kind"`
	Text string `json:"text,omitempty"`
}

// queueState is the teacher's queue, on the teacher's goroutine.
type queueState struct {
	queue   []queued
	queueSc *scenario.Scenario // the lesson the queue is for
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
	if s.seat == nil {
		return nil, coded("no-class", map[string]any{"code": ""}, "you are not in a class"), true
	}
	if !s.seat.teacher {
		return nil, coded("not-teacher", map[string]any{"op": r.Op}, "only the teacher may %s", r.Op[len("class-"):]), true
	}
	if s.ls == nil {
		return nil, coded("no-scenario", nil, "no scenario loaded: send load first"), true
	}
	if r.Step == nil {
		return nil, badArg(r.Op, "step", both("step is missing", "缺少 step")), true
	}
	s.queueFor()
	if r.Op == "class-unqueue" {
		i := slices.IndexFunc(s.queue, func(q queued) bool { return q.step == *r.Step })
		if i < 0 {
			return nil, coded("not-queued", map[string]any{"step": *r.Step}, "no question is queued at step %d", *r.Step), true
		}
		s.queue = slices.Delete(s.queue, i, i+1)
	} else if err := s.enqueueQuestion(*r.Step, r.Ask); err != nil {
		return nil, err, true
	}
	s.queuePublish()
	return &Message{Type: "queue", Queue: s.queueView()}, nil, true
}

// enqueueQuestion keeps ask for step, which the run has not reached; a
// question queued at the same step before gives way.
func (s *session) enqueueQuestion(step int, a *askRequest) error {
	if a == nil {
		return badArg("class-queue", "ask", both("ask is missing", "缺少 ask"))
	}
	// The question's own checks, as class-ask makes them: a kind it knows,
	// a free question's text and choices (the others need the run there).
	if _, err := class.Compute(class.Ask(*a), nil); err != nil {
		var ce *class.Error
		if a.Kind == class.Free || !errors.As(err, &ce) || ce.Code != "no-scenario" {
			return err
		}
	}
	if at := s.ls.Cursor(); step <= at {
		return coded("queue-past", map[string]any{"step": step, "at": at}, "the run is at step %d: queue a question for a later step than %d", at, step)
	}
	if step > s.srv.limits.MaxSteps {
		return coded("step-cap", map[string]any{"max": s.srv.limits.MaxSteps}, "the session reached its cap of %d steps", s.srv.limits.MaxSteps)
	}
	s.queue = slices.DeleteFunc(s.queue, func(q queued) bool { return q.step == step })
	if len(s.queue) >= maxQueued {
		return coded("queue-full", map[string]any{"max": maxQueued}, "%d questions are queued, the most: take one off first", maxQueued)
	}
	s.queue = append(s.queue, queued{step: step, ask: *a})
	slices.SortFunc(s.queue, func(x, y queued) int { return x.step - y.step })
	return nil
}

// queueFor empties the queue when the teacher's run is another lesson
// than the one it was made for.
func (s *session) queueFor() {
	if s.ls == nil {
		return
	}
	if sc := s.ls.Scenario(); sc != s.queueSc {
		if len(s.queue) > 0 {
			s.queue = nil
			s.queueSc = sc
			s.queueChanged()
			return
		}
		s.queueSc = sc
	}
}

// askQueued asks the question queued for the step the teacher's run has
// reached (the latest one due, when a jump passed several: the others are
// dropped) and pauses play for it. It runs after each of the teacher's
// pushes.
func (s *session) askQueued() {
	seat := s.seat
	if seat == nil || !seat.teacher || s.ls == nil {
		return
	}
	s.queueFor()
	at := s.ls.Cursor()
	due := -1
	for i, q := range s.queue {
		if q.step <= at {
			due = i
		}
	}
	if due < 0 {
		return
	}
	q := s.queue[due]
	s.queue = s.queue[due+1:]
	s.queueChanged()
	err := s.classAsk(&q.ask)
	if err != nil && s.conn != nil {
		s.conn.enqueue(errorMessage(0, err))
	}
	if err == nil && s.playing {
		s.setPlaying(false)
		s.push(0)
	}
}

// queueView is the queue as the pages see it.
func (s *session) queueView() []queuedView {
	out := []queuedView{}
	for _, q := range s.queue {
		v := queuedView{Step: q.step, Kind: q.ask.Kind}
		if q.ask.Kind == class.Free {
			v.Text = q.ask.Text
		}
		out = append(out, v)
	}
	return out
}

// queueChanged tells the teacher's page and the remotes the queue changed.
func (s *session) queueChanged() {
	s.queuePublish()
	if s.conn != nil {
		s.conn.enqueue(&Message{Type: "queue", Queue: s.queueView()})
	}
}

// queuePublish tells the remotes.
func (s *session) queuePublish() {
	s.queueLine.Store(&queueLine{items: s.queueView()})
	if s.seat != nil {
		s.seat.room.PokeRemotes()
	}
}

// queueLine is the queue as the teacher's remotes read it.
type queueLine struct{ items []queuedView }
