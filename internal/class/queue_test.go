package class

import (
	"errors"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// The room's queue: the teacher's alone, one lesson's, the latest question
// due taken at a jump (the ones it passed dropped), kept across a change
// of teacher, gone with the room.
func TestTheRoomsQueue(t *testing.T) {
	tab := NewTable(Limits{MaxRooms: 1, MaxRoomsPerAddress: 1, MaxClassSize: 2}, &school{budget: 3})
	teacher := newDesk("school")
	rm, key, err := tab.Open(teacher, "school")
	if err != nil {
		t.Fatal(err)
	}
	one, other := &scenario.Scenario{ID: "one"}, &scenario.Scenario{ID: "other"}
	code := func(err error) string {
		var ce *Error
		if errors.As(err, &ce) {
			return ce.Code
		}
		return ""
	}
	for _, s := range []int{2, 4, 6} {
		if err := rm.Enqueue(teacher, one, 0, 100, s, Ask{Kind: Holder}); err != nil {
			t.Fatalf("queue at %d: %v", s, err)
		}
	}
	if got := code(rm.Enqueue(newDesk("school"), one, 0, 100, 8, Ask{Kind: Holder})); got != "not-teacher" {
		t.Errorf("another page queues: got %q, want not-teacher", got)
	}
	if got := code(rm.Enqueue(teacher, one, 3, 100, 3, Ask{Kind: Holder})); got != "queue-past" {
		t.Errorf("a step the run reached: got %q, want queue-past", got)
	}
	if got := code(rm.Enqueue(teacher, one, 0, 100, 101, Ask{Kind: Holder})); got != "step-cap" {
		t.Errorf("a step past the cap: got %q, want step-cap", got)
	}
	// A new teacher (the key on another page) finds the queue.
	laptop := newDesk("school")
	if _, err := rm.Teach(laptop, nil); err != nil || !rm.CheckKey(key) {
		t.Fatal(err)
	}
	if _, ok := rm.TakeDue(teacher, one, 5); ok {
		t.Error("the old teacher took a question")
	}
	a, ok := rm.TakeDue(laptop, one, 5) // a jump past 2 and 4
	if q, _ := rm.Queue(); !ok || a.Kind != Holder || len(q) != 1 || q[0].Step != 6 {
		t.Errorf("a jump to 5: took %v %v, left %+v; want the question at 4 taken, 2 dropped, 6 left", a, ok, q)
	}
	// Another lesson empties it.
	_, before := rm.Queue()
	if _, ok := rm.TakeDue(laptop, other, 0); ok {
		t.Error("a question was due in another lesson")
	}
	if q, ver := rm.Queue(); len(q) != 0 || ver == before {
		t.Errorf("another lesson: queue %+v (version %d, was %d), want it empty and changed", q, ver, before)
	}
	if err := rm.Enqueue(laptop, other, 0, 100, 2, Ask{Kind: Next}); err != nil {
		t.Fatal(err)
	}
	rm.End("teacher-ended")
	if q, _ := rm.Queue(); len(q) != 0 {
		t.Errorf("an ended room keeps %+v", q)
	}
	if got := code(rm.Enqueue(laptop, other, 0, 100, 3, Ask{Kind: Next})); got != "no-class" {
		t.Errorf("queueing in an ended room: got %q, want no-class", got)
	}
}
