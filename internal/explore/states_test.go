package explore

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// A state the search keeps costs at most StateBytes: a state set filled
// to 30,000 states, to a million (its map's slots doubled just before)
// and to DefaultStates holds at most StateBytes a state on the heap after
// a GC. Measured 39 to 45 bytes a state at these sizes (a map of uint64
// keys with empty values takes 16-byte slots, and its tables run between
// half and seven eighths full): the full default set is about 85 to 88 MiB,
// which a server that bounds a search's memory must count.
func TestStateSetCost(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's heap is not a normal build's")
	}
	for _, n := range []int{30000, 1 << 20, DefaultStates} {
		before := heapInUse()
		s := newStateSet(n)
		for range n + 1000 { // past the cap: the set stays at it
			s.add(rand.Uint64())
		}
		grew := heapInUse() - before
		t.Logf("%8d states: %6d KiB, %.1f bytes a state", s.len(), grew>>10, float64(grew)/float64(s.len()))
		if s.len() != n {
			t.Errorf("a set capped at %d holds %d states", n, s.len())
		}
		if grew > int64(n)*StateBytes {
			t.Errorf("%d states: the heap grew by %d bytes, over %d a state", n, grew, StateBytes)
		}
		runtime.KeepAlive(s)
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}

// Options.States bounds the states a search keeps, and so what it holds:
// an exhaustive search of a lesson that sees hundreds of states keeps 10
// when told to, and counts no more than those.
func TestSearchKeepsAtMostItsStates(t *testing.T) {
	sc := lessonNamed(t, "blind-del-slow-release", "pause:5s")
	all := search(t, sc, Options{Strategy: Exhaustive, Runs: 50})
	few := search(t, sc, Options{Strategy: Exhaustive, Runs: 50, States: 10})
	if all.States <= 10 || few.States != 10 {
		t.Errorf("states kept: %d by default, %d with States 10; want over 10, and 10", all.States, few.States)
	}
	if few.Schedules != all.Schedules || few.Verdict != all.Verdict {
		t.Errorf("the bound changed what was searched: %d schedules (%q), want %d (%q)", few.Schedules, few.Verdict, all.Schedules, all.Verdict)
	}
}
