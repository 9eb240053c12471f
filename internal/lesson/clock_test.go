package lesson

import (
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// clockOf is a node's clock offset in a session's view at its cursor.
func clockOf(t *testing.T, s *Session, node string) time.Duration {
	t.Helper()
	for _, v := range s.Nodes() {
		if v.Name == node {
			return v.Clock
		}
	}
	t.Fatalf("no node %s", node)
	return 0
}

// The view's clocks are the cursor's: r3's clock runs on time until its
// jump, 10 s ahead after it, and on time again when the cursor goes back
// before it; the other masters keep the world's time throughout.
func TestNodeClocksFollowTheCursor(t *testing.T) {
	s := newSession(t, "redlock-clock-jump")
	jump := 0
	for jump == 0 && !s.run.Done() {
		before := len(s.Log())
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for _, e := range s.Log()[before:] {
			if e.Kind == sim.KindFault && e.Name == string(sim.FaultClockJump) {
				jump = s.Cursor()
			}
		}
	}
	if jump == 0 {
		t.Fatal("no clock jump in the lesson")
	}
	if got := clockOf(t, s, "r3"); got != 10*time.Second {
		t.Errorf("after the jump r3's clock is %v ahead, want 10s", got)
	}
	if got := clockOf(t, s, "r1"); got != 0 {
		t.Errorf("r1's clock is %v off, want on time", got)
	}
	if err := s.Seek(jump - 1); err != nil {
		t.Fatal(err)
	}
	if got := clockOf(t, s, "r3"); got != 0 {
		t.Errorf("before the jump r3's clock is %v off, want on time", got)
	}
}

// A client's clock_skew shows from the start, and only for that client.
func TestSkewsNameTheSkewedClients(t *testing.T) {
	s := newSession(t, "getset-skewed-clock")
	got := s.Skews()
	if len(got) != 1 || got["B"] != 10*time.Second {
		t.Errorf("skews = %v, want B 10s ahead alone", got)
	}
	if got := newSession(t, "blind-del-slow-release").Skews(); got != nil {
		t.Errorf("no client is skewed, yet skews = %v", got)
	}
}
