package server

import (
	"runtime"
	"testing"
	"time"
)

// chainNode is a link of a list the collector marks one pointer at a time:
// a live heap that takes long to mark (32 bytes a link).
type chainNode struct {
	next *chainNode
	_    [3]int64
}

var chain *chainNode

// Over the server's budget, a session holding little steps on (fair.go),
// and it must not wait for the meter's collection either (meter.go): at the
// budget, with the live heap above it, a step's accounting ran a whole
// collection every second on the stepping session's goroutine, and the
// other sessions' steps waited for it on the meter's lock (issue 36: steps
// of 1.3 to 2.6 s in the storm once the seekers had filled the budget,
// where its p99 was 8 to 57 ms). Expected now: the collection runs in the
// background, only a request about to be refused waits for it, and no step
// of the small session takes half as long as a collection. The test holds
// 128 MiB in a list (about 200 ms to mark here) over a 64 MiB budget and
// steps a lesson 20 times a second for 2.5 s; before, at least two steps
// each waited a whole collection.
func TestAStepDoesNotWaitForTheMetersCollection(t *testing.T) {
	_, url := newMeasuringServer(t, Limits{MaxMemory: 64 << 20})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	c.next("state")
	for range 4 << 20 {
		chain = &chainNode{next: chain}
	}
	defer func() { chain = nil }()
	start := time.Now()
	runtime.GC()
	gc := time.Since(start)
	if gc < 20*time.Millisecond {
		t.Skipf("a collection of the 128 MiB list took %s: too short to tell a wait from a step", gc)
	}
	var slowest time.Duration
	steps := 0
	for end := time.Now().Add(2500 * time.Millisecond); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		t0 := time.Now()
		c.send(map[string]any{"op": "step"})
		m := c.read()
		took := time.Since(t0)
		if m.Type != "state" {
			t.Fatalf("step %d over the budget, holding under half its share: got %s %q %q", steps+1, m.Type, m.Code, m.Error)
		}
		steps++
		slowest = max(slowest, took)
		if m.Snap != nil && m.Snap.Ended {
			c.send(map[string]any{"op": "seek", "step": 0})
			c.next("state")
		}
	}
	t.Logf("a collection %s; %d steps, the slowest %s", gc, steps, slowest)
	if slowest >= gc/2 {
		t.Errorf("the slowest of %d steps took %s, at least half a collection (%s): a step waited for the meter's collection", steps, slowest, gc)
	}
}
