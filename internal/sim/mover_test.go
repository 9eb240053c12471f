package sim_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// A comparison (internal/compare) drives a world by who moved and by the
// world's own steps. A pause of B at 0.3ms, before B's start at 0.5ms:
// the first step is A's start (A moved, thread main); the second the
// timed pause (the world's own: no mover), which holds B's start until
// 1.3ms. StepWorld takes the resume at once, ahead of A's request due at
// 1ms, and then B's main thread can move.
func TestMoverAndWorldSteps(t *testing.T) {
	w := newStockWorld(t, 1)
	w.At(300*time.Microsecond, sim.Fault{Kind: sim.FaultPause, Client: "B", For: time.Millisecond})
	if at, ok := w.NextWorld(); !ok || at != 300*time.Microsecond {
		t.Fatalf("NextWorld = %v, %v; want the pause at 0.3ms", at, ok)
	}
	if w.Mover() != "" {
		t.Errorf("before any step the mover is %q", w.Mover())
	}
	w.Step()
	if w.Mover() != "A" || w.MoverThread() != "main" {
		t.Errorf("step 1: mover %q/%q, want A/main", w.Mover(), w.MoverThread())
	}
	w.Step()
	if w.Mover() != "" || w.Now() != 300*time.Microsecond {
		t.Errorf("step 2: mover %q at %v, want the world's pause at 0.3ms", w.Mover(), w.Now())
	}
	if _, ok := w.ThreadMove("B", "main"); ok {
		t.Errorf("B is paused: its start should be held")
	}
	if at, ok := w.NextWorld(); !ok || at != 1300*time.Microsecond {
		t.Fatalf("NextWorld = %v, %v; want the resume at 1.3ms", at, ok)
	}
	if !w.StepWorld() || w.Mover() != "" || w.Now() != 1300*time.Microsecond || w.Steps() != 3 {
		t.Fatalf("StepWorld: mover %q at %v, step %d; want the resume at 1.3ms as step 3", w.Mover(), w.Now(), w.Steps())
	}
	if at, ok := w.ThreadMove("B", "main"); !ok || at != 1300*time.Microsecond {
		t.Fatalf("ThreadMove(B, main) = %v, %v; want B's start, released at 1.3ms", at, ok)
	}
	if ok, err := w.StepThread("B", "main"); !ok || err != nil || w.Mover() != "B" {
		t.Fatalf("StepThread(B, main) = %v, %v; mover %q", ok, err, w.Mover())
	}
	if ok, err := w.StepThread("B", "req9"); ok || err != nil {
		t.Errorf("a thread B does not have: %v, %v; want no move, no error", ok, err)
	}
	if _, err := w.StepThread("Z", "main"); !errors.Is(err, sim.ErrUnknownClient) {
		t.Errorf("an unknown client: %v", err)
	}
	w.Run()
	if _, ok := w.NextWorld(); ok || w.StepWorld() {
		t.Errorf("after the run there is no world step to take")
	}
}
