package zookeeper

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// play runs lesson l on the shared server and checks its verdicts.
func play(t *testing.T, l *Lesson) []sim.Event {
	t.Helper()
	rec, err := Run(context.Background(), server.Addr, l)
	if err != nil {
		t.Fatal(err)
	}
	evs := rec.Events()
	if got := rec.Verdicts(); !slices.Equal(got, l.Expect) {
		for _, e := range evs {
			t.Log(e.String())
		}
		t.Fatalf("%s: verdicts %v, want %v", l.ID, got, l.Expect)
	}
	return evs
}

func lesson(t *testing.T, id string) *Lesson {
	t.Helper()
	l, ok := Find(id)
	if !ok {
		t.Fatalf("no lesson %q", id)
	}
	return l
}

// first is the first event that matches, or nil.
func first(evs []sim.Event, match func(e *sim.Event) bool) *sim.Event {
	for i := range evs {
		if match(&evs[i]) {
			return &evs[i]
		}
	}
	return nil
}

func marked(who, name string) func(e *sim.Event) bool {
	return func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Client == who && e.Name == name }
}

// Two workers take turns, three rounds each. Argued before it ran: the
// recipe hands the lock on through the queue of sequence numbers, each
// waiter woken by its predecessor's deletion; no fault, so no overlap,
// and every token (a later node's creation zxid) above the last: safe,
// every fenced write taken.
func TestZooKeeperTwoWorkersTakeTurns(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-two-workers"))
	var tokens []int64
	for i := range evs {
		if n, ok := evs[i].FencingToken(); ok {
			tokens = append(tokens, n)
		}
	}
	if len(tokens) != 6 || !slices.IsSorted(tokens) {
		t.Errorf("tokens %v: want 6, each above the last", tokens)
	}
	for i := range evs {
		if e := &evs[i]; e.Kind == sim.KindExec && len(e.Cmd) > 0 && e.Cmd[0] == "WRITE" && e.Answer.Type != sim.AnswerOK {
			t.Errorf("a fenced write refused without a fault: %s", e.String())
		}
	}
}

// A holder frozen inside past its session. Argued before it ran: A's
// proxy holds its pings for 2 s; the server expires the 500 ms session
// within a tick or two of its end and deletes A's node (an expire, not
// A's delete); B, watching it, acquires and enters while A is still
// inside: mutual-exclusion. A thaws, hears its session expired, and its
// plain setData is taken after B's: stale-write. Its unlock fails.
func TestZooKeeperFrozenHolderGivesTwoHolders(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-frozen-holder"))
	expired := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindExpire })
	bGot := first(evs, marked("B", sim.MarkAcquired))
	resume := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindFault && e.Name == "resume" })
	heard := first(evs, marked("A", "session-expired"))
	if expired == nil || bGot == nil || resume == nil || heard == nil ||
		!(expired.Seq < bGot.Seq && bGot.Seq < resume.Seq && resume.Seq < heard.Seq) {
		t.Fatalf("want A's session expired, then B acquired, then A resumed, then A heard; got %v, %v, %v, %v", expired, bGot, resume, heard)
	}
	if bGot.T < 500*time.Millisecond {
		t.Errorf("B acquired at %s, before A's 500ms session could have expired", bGot.T)
	}
	if first(evs, marked("A", sim.MarkReleaseFailed)) == nil {
		t.Error("A's unlock after its session expired did not fail")
	}
}

// The same freeze before A writes, with the czxid as the token. Argued
// before it ran: B's node is created after A's, so its czxid is larger;
// B writes first with it; A's write carries the smaller czxid and the
// resource refuses it: safe, the refusal kept.
func TestZooKeeperCzxidFencingRefusesTheStaleHolder(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-czxid-fencing"))
	bw := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindExec && e.Client == "B" && e.Cmd[0] == "WRITE" })
	aw := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindExec && e.Client == "A" && e.Cmd[0] == "WRITE" })
	if bw == nil || aw == nil || bw.Answer.Type != sim.AnswerOK || aw.Answer.Type == sim.AnswerOK || aw.Seq < bw.Seq || len(aw.Keys) != 0 {
		t.Fatalf("want B's write taken, then A's refused; got %v, %v", bw, aw)
	}
}
