package etcd

import (
	"context"
	"errors"
	"os/exec"
	"testing"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// TestAServerPauseDropsAHealthyHoldersLock runs etcd-server-pause on an
// etcd process of its own (Debian's etcd-server). The verdict argued
// before running (the lesson's comment): the server ends A's lease by its
// wall clock, which ran on through the 3s stop; A's late keep-alive
// cannot renew an expired lease, so the server deletes A's key after the
// resume while A, never paused, is inside; B enters: mutual-exclusion.
// The assertions hold on that order of events, not on milliseconds.
func TestAServerPauseDropsAHealthyHoldersLock(t *testing.T) {
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip("the etcd server program is not installed: " + installCommand)
	}
	srv, err := StartProcess()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	l := lesson(t, "etcd-server-pause")
	rec, err := Run(context.Background(), srv, l)
	if err != nil {
		t.Fatal(err)
	}
	evs := rec.Events()
	dump := func() {
		for _, e := range evs {
			t.Log(e.String())
		}
	}
	if got := rec.Verdicts(); len(got) != 1 || got[0] != sim.VerdictMutualExclusion {
		dump()
		t.Fatalf("verdicts %v, want [%s]", got, sim.VerdictMutualExclusion)
	}
	seq := func(match func(e *sim.Event) bool) int {
		if e := first(evs, match); e != nil {
			return e.Seq
		}
		return 0
	}
	stop := seq(func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerPause })
	resume := seq(func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerResume })
	enterA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "A" && e.Name == sim.MarkEnter })
	leaveA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "A" && e.Name == sim.MarkLeave })
	expireA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindExpire && e.Fact != nil && e.Fact.Holder == "A" })
	enterB := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "B" && e.Name == sim.MarkEnter })
	said := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindSay && e.Name == SayPauseOutcome })
	switch {
	case !(enterA > 0 && enterA < stop && stop < resume):
		dump()
		t.Fatalf("A entered at %d, the server stopped at %d and resumed at %d: want that order", enterA, stop, resume)
	case !(resume < expireA && expireA < enterB && enterB < leaveA):
		dump()
		t.Fatalf("A's key expired at %d, B entered at %d, A left at %d (resume %d): want the expiry after the resume, B inside before A left", expireA, enterB, leaveA, resume)
	case said == nil || said.Fact.Key != fact.EtcdPauseDropped:
		dump()
		t.Fatalf("the run does not say that A's lease was dropped: %+v", said)
	}
	// A's guarded write, after its key was deleted, is refused.
	if first(evs, func(e *sim.Event) bool { return e.Client == "A" && e.Name == "write-rejected" }) == nil {
		dump()
		t.Fatal("A's Txn If IsOwner was not refused")
	}
}

// The lesson refuses a server that is not a process Lockstep started: the
// embedded one (in this process) and an external one.
func TestAServerPauseNeedsAProcessOfItsOwn(t *testing.T) {
	l := lesson(t, "etcd-server-pause")
	if _, err := Run(context.Background(), server, l); !errors.Is(err, ErrCannotPause) {
		t.Fatalf("on the embedded server: %v, want ErrCannotPause", err)
	}
	ext, err := External("http://" + server.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), ext, l); !errors.Is(err, ErrCannotPause) {
		t.Fatalf("on an external server: %v, want ErrCannotPause", err)
	}
}
