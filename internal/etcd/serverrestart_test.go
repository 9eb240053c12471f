package etcd

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// TestAServerRestartKeepsTheHoldersLease runs etcd-server-restart on an
// etcd process of its own. The verdict argued before running (the
// lesson's comment): the restarted server reads A's lease back from disk
// and gives it its full TTL again; A's keep-alive reconnects before its
// client's own deadline, so A's key is never deleted and B enters only
// after A leaves: safe. If a run took the other branch (A's client gave
// the lease up during the outage), the run must say so and its verdict
// must be mutual-exclusion, with A's key's expiry after the restart and
// B inside before A left. The assertions hold on the order of events.
func TestAServerRestartKeepsTheHoldersLease(t *testing.T) {
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip("the etcd server program is not installed: " + installCommand)
	}
	srv, err := StartProcess()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	l := lesson(t, "etcd-server-restart")
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
	seq := func(match func(e *sim.Event) bool) int {
		if e := first(evs, match); e != nil {
			return e.Seq
		}
		return 0
	}
	crash := seq(func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerCrash })
	restart := seq(func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerRestart })
	enterA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "A" && e.Name == sim.MarkEnter })
	leaveA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "A" && e.Name == sim.MarkLeave })
	enterB := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "B" && e.Name == sim.MarkEnter })
	expireA := seq(func(e *sim.Event) bool {
		return e.Kind == sim.KindExpire && e.Seq > crash && e.Fact != nil && e.Fact.Holder == "A"
	})
	said := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindSay && e.Name == SayRestartOutcome })
	if !(enterA > 0 && enterA < crash && crash < restart) || said == nil {
		dump()
		t.Fatalf("A entered at %d, the server was killed at %d and restarted at %d, the outcome said %+v: want that order, then the outcome", enterA, crash, restart, said)
	}
	got := rec.Verdicts()
	if !slices.Equal(got, l.Expected(evs)) {
		dump()
		t.Fatalf("verdicts %v, want %v for the branch the run said (%s)", got, l.Expected(evs), said.Fact.Key)
	}
	t.Logf("branch: %s, verdicts %v", said.Fact.Key, got)
	switch said.Fact.Key {
	case fact.EtcdRestartKept:
		if expireA != 0 || !(leaveA > 0 && leaveA < enterB) || !slices.Equal(got, []string{sim.VerdictSafe}) {
			dump()
			t.Fatalf("kept: A's key expired at %d, A left at %d, B entered at %d, verdicts %v: want no expiry, B after A, safe", expireA, leaveA, enterB, got)
		}
	case fact.EtcdRestartLost:
		if !(restart < expireA && expireA < enterB && enterB < leaveA) {
			dump()
			t.Fatalf("lost: A's key expired at %d, B entered at %d, A left at %d (restart %d): want the expiry after the restart, B inside before A left", expireA, enterB, leaveA, restart)
		}
	default:
		t.Fatalf("the outcome says %s", said.Fact.Key)
	}
}

// The restart, like the pause, refuses a server that is not a process
// Lockstep started: the embedded one and an external one.
func TestAServerRestartNeedsAProcessOfItsOwn(t *testing.T) {
	l := lesson(t, "etcd-server-restart")
	if _, err := Run(context.Background(), server, l); !errors.Is(err, ErrCannotPause) {
		t.Fatalf("on the embedded server: %v, want ErrCannotPause", err)
	}
	ext := &Server{Addr: server.Addr}
	if _, err := Run(context.Background(), ext, l); !errors.Is(err, ErrCannotPause) {
		t.Fatalf("on an external server: %v, want ErrCannotPause", err)
	}
}

// A restart whose branch said the holder's lease was lost expects
// mutual-exclusion; one that kept it, or a log without the line, expects
// the lesson's own verdicts.
func TestTheServerRestartExpectsTheBranchItTook(t *testing.T) {
	l := lesson(t, "etcd-server-restart")
	said := func(key fact.Key) []sim.Event {
		return []sim.Event{{Kind: sim.KindSay, Name: SayRestartOutcome, Fact: &fact.Fact{Key: key, Holder: "A"}}}
	}
	if got := l.Expected(said(fact.EtcdRestartLost)); !slices.Equal(got, []string{sim.VerdictMutualExclusion}) {
		t.Errorf("lost: %v", got)
	}
	if got := l.Expected(said(fact.EtcdRestartKept)); !slices.Equal(got, l.Expect) {
		t.Errorf("kept: %v", got)
	}
	if got := l.Expected(nil); !slices.Equal(got, l.Expect) {
		t.Errorf("no outcome: %v", got)
	}
}

// TestARestartPastTheClientsDeadlineLosesTheLease is the other branch,
// argued before running: a 2s lease and the server down 4s. A's client
// gives the lease up on its own deadline (its last reply + 2s) during the
// outage (Session.Done), and renews it no more; the restarted server gives
// the lease its full TTL again, and with no keep-alive ends it 2s after
// the restart, deleting A's key while A (working 8s) is inside. B, queued
// behind that key, enters beside A: mutual-exclusion, and the run says it
// lost the lease. A restart cannot end a lease early; a client that gave
// up its lease can.
func TestARestartPastTheClientsDeadlineLosesTheLease(t *testing.T) {
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip("the etcd server program is not installed: " + installCommand)
	}
	srv, err := StartProcess()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	l := *lesson(t, "etcd-server-restart")
	l.Lease, l.ServerRestart = 2, 4*time.Second
	l.Workers = []Worker{
		{Name: "A", Work: 8 * time.Second, Write: Guarded},
		{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
	}
	rec, err := Run(context.Background(), srv, &l)
	if err != nil {
		t.Fatal(err)
	}
	evs := rec.Events()
	seq := func(match func(e *sim.Event) bool) int {
		if e := first(evs, match); e != nil {
			return e.Seq
		}
		return 0
	}
	crash := seq(func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerCrash })
	restart := seq(func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerRestart })
	doneA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "A" && e.Name == "session-done" })
	expireA := seq(func(e *sim.Event) bool {
		return e.Kind == sim.KindExpire && e.Seq > crash && e.Fact != nil && e.Fact.Holder == "A"
	})
	enterB := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "B" && e.Name == sim.MarkEnter })
	leaveA := seq(func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == "A" && e.Name == sim.MarkLeave })
	said := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindSay && e.Name == SayRestartOutcome })
	if !(crash < doneA && doneA < restart && restart < expireA && expireA < enterB && enterB < leaveA) ||
		said == nil || said.Fact.Key != fact.EtcdRestartLost ||
		!slices.Equal(rec.Verdicts(), []string{sim.VerdictMutualExclusion}) || !slices.Equal(l.Expected(evs), rec.Verdicts()) {
		for _, e := range evs {
			t.Log(e.String())
		}
		t.Fatalf("crash %d, A's Session.Done %d, restart %d, A's key expired %d, B entered %d, A left %d, said %+v, verdicts %v: want that order, the lease said lost, mutual-exclusion",
			crash, doneA, restart, expireA, enterB, leaveA, said, rec.Verdicts())
	}
}

// The page's path: the service runs the restart on a process of its own,
// the lesson it lists expects the verdict of the branch the run said it
// took, and the process is gone once the run ends.
func TestTheServiceRunsAServerRestartOnAProcessOfItsOwn(t *testing.T) {
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip("the etcd server program is not installed: " + installCommand)
	}
	svc, err := NewService("")
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	var listed *live.Lesson
	for _, l := range svc.Lessons() {
		if l.ID == "etcd-server-restart" {
			listed = &l
		}
	}
	if listed == nil || listed.Expected == nil || listed.Needs != nil {
		t.Fatalf("the service lists %+v: want etcd-server-restart, runnable here, its verdict by its branch", listed)
	}
	run, err := svc.Start(context.Background(), "etcd-server-restart")
	if err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	if err := run.Err(); err != nil {
		t.Fatal(err)
	}
	rec := run.(*Play).rec
	if first(rec.Events(), func(e *sim.Event) bool { return e.Kind == sim.KindSay && e.Name == SayRestartOutcome }) == nil {
		t.Fatal("the run does not say which branch it took")
	}
	if got, want := rec.Verdicts(), listed.Expected(rec.Events()); !slices.Equal(got, want) {
		t.Fatalf("verdicts %v, want %v", got, want)
	}
	if svc.Startup() != 0 {
		t.Errorf("the shared server was started (%v) for a lesson that runs on its own", svc.Startup())
	}
	for range 100 { // the run's end kills its process
		svc.mu.Lock()
		n := len(svc.paused)
		svc.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the run's etcd process is still tracked after the run ended")
}
