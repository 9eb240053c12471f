package etcd

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
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

// On an external server the page marks the lesson (it needs the server
// Lockstep starts) and refuses to start it, in both languages; the other
// lessons are not marked.
func TestAServerPauseIsMarkedOnAnExternalServer(t *testing.T) {
	svc, err := NewService("http://" + server.Addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range svc.Lessons() {
		stops := l.ID == "etcd-server-pause" || l.ID == "etcd-server-restart"
		switch {
		case stops && (l.Needs == nil || l.Needs.Short.En != NeedsStarted.En || l.Needs.Say.Zh != CannotPause.Zh):
			t.Errorf("%s: needs %+v, want the server Lockstep starts", l.ID, l.Needs)
		case !stops && l.Needs != nil:
			t.Errorf("%s: needs %+v, want nothing", l.ID, l.Needs)
		}
	}
	for _, id := range []string{"etcd-server-pause", "etcd-server-restart"} {
		_, err = svc.Start(context.Background(), id)
		var u *live.Unavailable
		if !errors.As(err, &u) || !errors.Is(err, ErrCannotPause) || u.Say.En != CannotPause.En {
			t.Fatalf("start %s on an external server: %v, want live.Unavailable with CannotPause", id, err)
		}
	}
}

// The page's path: the service runs the lesson on a process of its own,
// not on its shared server, and the process is gone once the run ends.
func TestTheServiceRunsAServerPauseOnAProcessOfItsOwn(t *testing.T) {
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip("the etcd server program is not installed: " + installCommand)
	}
	svc, err := NewService("")
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	run, err := svc.Start(context.Background(), "etcd-server-pause")
	if err != nil {
		t.Fatal(err)
	}
	<-run.Done()
	if err := run.Err(); err != nil {
		t.Fatal(err)
	}
	p := run.(*Play)
	if got := p.rec.Verdicts(); len(got) != 1 || got[0] != sim.VerdictMutualExclusion {
		t.Fatalf("verdicts %v, want [%s]", got, sim.VerdictMutualExclusion)
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

// Without the etcd server program the page marks the lesson and says what
// to install, in both languages; starting it says the same, and nothing
// runs.
func TestAServerPauseWithoutTheProgramSaysWhatToInstall(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	svc, err := NewService("")
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	for _, l := range svc.Lessons() {
		if (l.ID == "etcd-server-pause" || l.ID == "etcd-server-restart") && (l.Needs == nil || l.Needs.Short.Zh != NeedsBinary.Zh || !strings.Contains(l.Needs.Say.En, "apt-get install etcd-server") || !strings.Contains(l.Needs.Say.Zh, "apt-get install etcd-server")) {
			t.Errorf("%s: needs %+v, want etcd-server in both languages", l.ID, l.Needs)
		}
	}
	for _, id := range []string{"etcd-server-pause", "etcd-server-restart"} {
		_, err = svc.Start(context.Background(), id)
		var u *live.Unavailable
		if !errors.As(err, &u) || !errors.Is(err, ErrNoBinary) || u.Say.Zh != Install.Zh {
			t.Fatalf("start %s without the program: %v, want live.Unavailable with Install", id, err)
		}
	}
}
