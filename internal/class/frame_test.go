package class

import (
	"sync"
	"sync/atomic"
	"testing"
)

// The state message students at one place share is made once, however
// many ask for it at once; its bytes are metered while the room keeps it,
// and given back when the position moves on and when the room ends.
func TestASharedMessageIsMadeOnceAndMetered(t *testing.T) {
	tab := NewTable(Limits{MaxRooms: 1, MaxRoomsPerAddress: 1, MaxClassSize: 1}, &school{budget: 3})
	teacher := newDesk("school")
	rm, _, err := tab.Open(teacher, "school")
	if err != nil {
		t.Fatal(err)
	}
	var metered atomic.Int64
	rm.MeterFrames(func(d int64) { metered.Add(d) })
	rm.Publish(teacher, &Position{Cursor: 1})
	ver := rm.Position().Ver
	var made atomic.Int32
	encode := func(bool) []byte { made.Add(1); return make([]byte, 1000) }
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if b, _, ok := rm.Frame(ver, 0, 10, encode); !ok || len(b) != 1000 {
				t.Errorf("Frame: %d bytes, ok %v; want the 1000 made", len(b), ok)
			}
		})
	}
	wg.Wait()
	if n := made.Load(); n != 1 {
		t.Fatalf("50 students at one place: the message was made %d times, want once", n)
	}
	if m := metered.Load(); m != 1000 {
		t.Fatalf("metered %d bytes, want the message's 1000", m)
	}
	if _, _, ok := rm.Frame(ver-1, 0, 10, encode); ok {
		t.Fatal("a message of a position the room has left: got one")
	}
	rm.Publish(teacher, &Position{Cursor: 2})
	rm.Frame(rm.Position().Ver, 10, 20, func(bool) []byte { return make([]byte, 300) })
	if m := metered.Load(); m != 300 {
		t.Fatalf("the position moved on: metered %d bytes, want only the new message's 300", m)
	}
	rm.End("teacher-ended")
	if m := metered.Load(); m != 0 {
		t.Fatalf("the room ended: %d bytes still metered", m)
	}
	if _, _, ok := rm.Frame(rm.Position().Ver, 0, 20, encode); ok {
		t.Fatal("an ended room made a message")
	}
}
