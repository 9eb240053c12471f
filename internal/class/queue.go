package class

import (
	"errors"
	"slices"

	"github.com/lockstep/lockstep/internal/scenario"
)

// Questions queued for later steps of the teacher's lesson (docs/protocol.md,
// Classes): the room keeps them, not the teacher's session, so a teacher
// whose page reconnects with the key, on the same device or another, and
// the teacher's remotes see the same queue. When the teacher's run gets to
// a queued question's step the server asks it as class-ask does. The queue
// is for one lesson (a scenario): the teacher's run on another empties it.

// Caps on the queue. A free question's text and choices keep Compute's caps
// (maxTextRunes, maxChoiceRunes, MaxChoices), checked when it is queued.
const MaxQueued = 20 // questions queued at once

// Queued is one question waiting for its step.
type Queued struct {
	Step int
	Ask  Ask
}

// queue is a room's queued questions, under the room's lock.
type queue struct {
	items []Queued
	sc    *scenario.Scenario // the lesson they are for
	ver   int                // bumped on every change (QueueVer)
}

// forLocked empties the queue when sc is another lesson than the one it
// holds questions for; it reports whether the queue changed.
func (q *queue) forLocked(sc *scenario.Scenario) bool {
	if sc == q.sc {
		return false
	}
	q.sc = sc
	if len(q.items) == 0 {
		return false
	}
	q.items = nil
	q.ver++
	return true
}

// Enqueue keeps a for step of the teacher's run, which is at cursor at on
// lesson sc (its steps at most maxStep); a question queued at the same step
// before gives way. Only the room's teacher queues.
func (r *Room) Enqueue(teacher Participant, sc *scenario.Scenario, at, maxStep, step int, a Ask) error {
	// The question's own checks, as Compute makes them when it is asked: a
	// kind it knows, a free question's text and choices (the others need
	// the run there).
	if _, err := Compute(a, nil); err != nil {
		var ce *Error
		if a.Kind == Free || !errors.As(err, &ce) || ce.Code != "no-scenario" {
			return err
		}
	}
	if step <= at {
		return refuse("queue-past", map[string]any{"step": step, "at": at}, "the run is at step %d: queue a question for a later step than %d", at, step)
	}
	if step > maxStep {
		return refuse("step-cap", map[string]any{"max": maxStep}, "the session reached its cap of %d steps", maxStep)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.teachesLocked(teacher, "class-queue"); err != nil {
		return err
	}
	q := &r.queue
	q.forLocked(sc)
	rest := slices.DeleteFunc(slices.Clone(q.items), func(x Queued) bool { return x.Step == step })
	if len(rest) >= MaxQueued {
		return refuse("queue-full", map[string]any{"max": MaxQueued}, "%d questions are queued, the most: take one off first", MaxQueued)
	}
	a.Choices, a.Truth = slices.Clone(a.Choices), slices.Clone(a.Truth)
	q.items = append(rest, Queued{Step: step, Ask: a})
	slices.SortFunc(q.items, func(x, y Queued) int { return x.Step - y.Step })
	q.ver++
	r.queueChangedLocked()
	return nil
}

// Unqueue takes the question queued at step off the queue of lesson sc.
func (r *Room) Unqueue(teacher Participant, sc *scenario.Scenario, step int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.teachesLocked(teacher, "class-unqueue"); err != nil {
		return err
	}
	q := &r.queue
	changed := q.forLocked(sc)
	i := slices.IndexFunc(q.items, func(x Queued) bool { return x.Step == step })
	if i < 0 {
		if changed {
			r.queueChangedLocked()
		}
		return refuse("not-queued", map[string]any{"step": step}, "no question is queued at step %d", step)
	}
	q.items = slices.Delete(q.items, i, i+1)
	q.ver++
	r.queueChangedLocked()
	return nil
}

// TakeDue takes off the queue the question due at cursor at of the
// teacher's run on lesson sc: the latest one due, when a jump passed
// several (the others are dropped). ok is false when none is due. A run on
// another lesson than the queue's empties it.
func (r *Room) TakeDue(teacher Participant, sc *scenario.Scenario, at int) (a Ask, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.teacher != teacher || r.ended != "" {
		return Ask{}, false
	}
	q := &r.queue
	if q.forLocked(sc) {
		r.queueChangedLocked()
	}
	due := -1
	for i, x := range q.items {
		if x.Step <= at {
			due = i
		}
	}
	if due < 0 {
		return Ask{}, false
	}
	a = q.items[due].Ask
	q.items = slices.Clone(q.items[due+1:])
	q.ver++
	r.queueChangedLocked()
	return a, true
}

// Queue is the room's queue, in step order, and its version, which
// changes with it (a page is sent the queue when it changed).
func (r *Room) Queue() ([]Queued, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.queue.items), r.queue.ver
}

// teachesLocked refuses op unless p teaches the room, which lives.
func (r *Room) teachesLocked(p Participant, op string) error {
	if r.ended != "" {
		return refuse("no-class", map[string]any{"code": r.code}, "the class has ended")
	}
	if r.teacher != p {
		return refuse("not-teacher", map[string]any{"op": op}, "only the teacher may %s", op[len("class-"):])
	}
	return nil
}

// queueChangedLocked wakes the teacher's session and the remotes to show
// the queue anew.
func (r *Room) queueChangedLocked() {
	r.teacher.Poke()
	r.pokeRemotesLocked()
}
