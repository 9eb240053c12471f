package etcd

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// TestAWaiterWhoseLeaseEndedIsToldSo runs etcd-io/etcd#11456's shape with
// the Mutex of go.mod's client (v3.7.3) on the embedded server: B's lease
// ends while B waits behind A (its connection cut), and A then unlocks.
// Argued before running (the lesson's comment): Lock() gets B's own key
// after its wait, finds it gone and returns ErrSessionExpired; C holds
// alone: safe. A client without that check (etcd 3.4.3's) would return
// from Lock() and let B enter beside C. The test first checks that the
// shape happened (B's key deleted before A's unlock), so that a safe
// verdict is the client's doing, not a run that missed the shape.
func TestAWaiterWhoseLeaseEndedIsToldSo(t *testing.T) {
	evs := play(t, lesson(t, "etcd-waiter-lease-expired"))
	dump := func() {
		for _, e := range evs {
			t.Log(e.String())
		}
	}
	seq := func(match func(e *sim.Event) bool) int {
		if e := first(evs, match); e != nil {
			return e.Seq
		}
		return 0
	}
	expireB := seq(func(e *sim.Event) bool { return e.Kind == sim.KindExpire && e.Fact != nil && e.Fact.Holder == "B" })
	releaseA := seq(func(e *sim.Event) bool {
		return e.Kind == sim.KindMark && e.Client == "A" && e.Name == sim.MarkReleased
	})
	gaveUp := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "B" && e.Name == sim.MarkGaveUp })
	acquiredB := seq(func(e *sim.Event) bool {
		return e.Kind == sim.KindMark && e.Client == "B" && e.Name == sim.MarkAcquired
	})
	enterC := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "C" && e.Name == sim.MarkEnter })
	doneB := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindDone && e.Client == "B" })
	switch {
	case expireB == 0 || releaseA == 0 || expireB > releaseA:
		dump()
		t.Fatalf("the shape did not happen: B's key expired at %d, A released at %d", expireB, releaseA)
	case acquiredB != 0:
		dump()
		t.Fatalf("B was told it held the lock (#%d) after its lease ended (#%d): #11456's bug", acquiredB, expireB)
	case gaveUp == 0 || doneB == nil || doneB.Fact == nil || !strings.Contains(doneB.Fact.Text, "session is expired"):
		dump()
		t.Fatalf("B did not give up with ErrSessionExpired (gave up at %d, done %v)", gaveUp, doneB)
	case enterC == 0:
		dump()
		t.Fatal("C never took the lock")
	}
}
