package zookeeper

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// The server pause lesson, on the JVM the tests started (not parallel: it
// stops the server every other test shares). Argued before it ran: A
// holds and works 2.5 s; B queues on A's node; the server stops for 1 s,
// twice the 500 ms sessions, and resumes. Then one of the two branches
// measured (TestAServerPauseExpiresEveryoneOrNoOne): every session
// expires at once (A's and B's nodes go, B's Lock fails, A's unlock fails,
// A's fenced write lands, as no later token was issued), or every session
// lives on (A writes and lets go, B acquires after it). In neither is the
// lock handed on to B while A holds, and no later token makes A's write
// stale: safe either way. The run says which branch it took, and the
// branch it names must be the one its events show. Found in the series
// after: rarely the race splits, the holder's session expiring and the
// waiter's living on; B's watch fires and B enters while A believes it
// holds: mutual-exclusion (Lesson.Expected), A's write refused by its
// token.
func TestZooKeeperServerPauseSaysWhichBranchItTook(t *testing.T) {
	l := lesson(t, "zookeeper-server-pause")
	rec, err := RunOn(context.Background(), server, l)
	if err != nil {
		t.Fatal(err)
	}
	evs := rec.Events()
	if got, want := rec.Verdicts(), l.Expected(evs); !slices.Equal(got, want) {
		for _, e := range evs {
			t.Log(e.String())
		}
		t.Fatalf("verdicts %v, want %v", got, want)
	}
	stop := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerPause })
	resume := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == FaultServerResume })
	bWaits := first(evs, marked("B", "watch"))
	aInside := first(evs, marked("A", sim.MarkEnter))
	if stop == nil || resume == nil || bWaits == nil || aInside == nil ||
		!(aInside.Seq < stop.Seq && bWaits.Seq < stop.Seq && stop.Seq < resume.Seq) || resume.T-stop.T < l.ServerPause {
		t.Fatalf("want A inside and B waiting, then the server stopped for %s and resumed; got %v, %v, %v, %v", l.ServerPause, aInside, bWaits, stop, resume)
	}
	var says []*sim.Event
	for i := range evs {
		if evs[i].Kind == sim.KindSay && evs[i].Name == SayPauseOutcome {
			says = append(says, &evs[i])
		}
	}
	if len(says) != 1 || says[0].Say == nil || says[0].Say.En == "" || says[0].Say.Zh == "" {
		t.Fatalf("want one line naming the branch, in both languages; got %v", says)
	}
	expired := map[string]bool{}
	for i := range evs {
		if e := &evs[i]; e.Kind == sim.KindExpire && e.Seq > stop.Seq {
			expired[e.Fact.Holder] = true
		}
	}
	bGot := first(evs, marked("B", sim.MarkAcquired))
	switch says[0].Fact.Key {
	case fact.PauseExpiredAll:
		if !expired["A"] || !expired["B"] || bGot != nil || first(evs, marked("B", sim.MarkGaveUp)) == nil ||
			first(evs, marked("A", sim.MarkReleaseFailed)) == nil {
			t.Fatalf("the run says every session expired; want A's and B's nodes expired (%v), B's Lock failed, A's unlock failed", expired)
		}
		t.Logf("every session expired on the resume: %s", says[0].Say.En)
	case fact.PauseOutlived:
		aLeft := first(evs, marked("A", sim.MarkReleased))
		if len(expired) != 0 || bGot == nil || aLeft == nil || bGot.Seq < aLeft.Seq {
			t.Fatalf("the run says every session lived; want no node expired (%v), B acquiring after A let go (%v, %v)", expired, aLeft, bGot)
		}
		t.Logf("every session lived on: %s", says[0].Say.En)
	case fact.PauseSplit:
		f := says[0].Fact
		if !expired[f.Holder] || expired[f.Client] || f.Holder == "" || f.Client == "" {
			t.Fatalf("the run says %s's session expired and %s's lived; the expiries: %v", f.Holder, f.Client, expired)
		}
		t.Logf("the race split: %s", says[0].Say.En)
	default:
		t.Fatalf("no branch named: %s (expired: %v)", says[0].Say.En, expired)
	}
}

// An external server cannot be stopped from here: the lesson is refused
// with words that say why, not run without its pause.
func TestZooKeeperServerPauseRefusesAnExternalServer(t *testing.T) {
	t.Parallel()
	l := lesson(t, "zookeeper-server-pause")
	if _, err := Run(context.Background(), server.Addr, l); !errors.Is(err, ErrCannotPause) {
		t.Fatalf("Run on an address: %v, want ErrCannotPause", err)
	}
	s, err := NewService(server.Addr)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Start(context.Background(), l.ID)
	var u *live.Unavailable
	if !errors.As(err, &u) || !errors.Is(err, ErrCannotPause) || u.Say.En != CannotPause.En || u.Say.Zh != CannotPause.Zh {
		t.Fatalf("Start on an external server: %v, want live.Unavailable saying CannotPause", err)
	}
	for _, ls := range s.Lessons() {
		if (ls.ID == l.ID) != (ls.Needs != nil) {
			t.Errorf("%s on an external server: needs %v", ls.ID, ls.Needs)
		}
	}
}

// In the browser app the server pause runs on a JVM of its own, so that
// stopping it stops no other viewer's run on the shared server. Argued:
// the shared server is never started for it (Startup stays 0), the run
// names its own server, ends with the lesson's verdict, and its JVM is
// gone once the run is over.
func TestZooKeeperServerPauseRunsOnAServerOfItsOwn(t *testing.T) {
	t.Parallel()
	s, err := NewService("")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := lesson(t, "zookeeper-server-pause")
	r, err := s.Start(context.Background(), l.ID)
	if err != nil {
		t.Fatal(err)
	}
	p := r.(*Play)
	<-p.Done()
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Recorder().Verdicts(), l.Expected(p.Events()); !slices.Equal(got, want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	if s.Startup() != 0 || s.Where() != "" {
		t.Errorf("the shared server was started for the server pause: %s", s.Where())
	}
	if !strings.Contains(p.Server(), "for this run") {
		t.Errorf("the run names %q, not a server of its own", p.Server())
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s.mu.Lock()
		n := len(s.paused)
		s.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the run's JVM outlived its run")
		}
	}
}

// The page's expected verdict for the server pause is the branch the run
// took, once it has ended: a split whose holder's session expired ends in
// mutual-exclusion, every other branch as the lesson declares (safe). The
// other lessons have no such rule: their expectation is fixed.
func TestTheServerPauseExpectsTheBranchItTook(t *testing.T) {
	svc, err := NewService("")
	if err != nil {
		t.Fatal(err)
	}
	said := func(key fact.Key, holder string) []sim.Event {
		return []sim.Event{{Kind: sim.KindSay, Name: SayPauseOutcome, Fact: &fact.Fact{Key: key, Holder: holder}}}
	}
	for _, l := range svc.Lessons() {
		if l.ID != "zookeeper-server-pause" {
			if l.Expected != nil {
				t.Errorf("%s: an expectation by branch, want its fixed %v", l.ID, l.Expect)
			}
			continue
		}
		if l.Expected == nil {
			t.Fatal("zookeeper-server-pause: no expectation by branch")
		}
		for _, c := range []struct {
			evs  []sim.Event
			want string
		}{
			{said(fact.PauseExpiredAll, ""), sim.VerdictSafe},
			{said(fact.PauseOutlived, ""), sim.VerdictSafe},
			{said(fact.PauseSplit, "A"), sim.VerdictMutualExclusion},
			{said(fact.PauseSplit, "B"), sim.VerdictSafe},
		} {
			if got := l.Expected(c.evs); !slices.Equal(got, []string{c.want}) {
				t.Errorf("after %s (holder %q): expected %v, want [%s]", c.evs[0].Fact.Key, c.evs[0].Fact.Holder, got, c.want)
			}
		}
	}
}
