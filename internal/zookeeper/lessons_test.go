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

// Four workers queue on one lock. Argued before it ran: A holds first; B,
// C and D each create a node and watch only the one just below their own
// (B A's, C B's, D C's); each release deletes one node, which fires one
// watch: three wake-ups in all, each of the next in line, each after its
// predecessor leaves (and deletes its node) and before that waiter
// acquires. No fault: safe.
// Were the waiters to watch the lock's children (the herd), each release
// would wake every waiter left, six wake-ups, not three.
func TestZooKeeperNoHerdWakesOnlyTheNextInLine(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-no-herd"))
	order := []string{"A", "B", "C", "D"}
	var woken []*sim.Event
	for i := range evs {
		if e := &evs[i]; e.Kind == sim.KindMark && e.Name == "woken" {
			woken = append(woken, e)
		}
	}
	if len(woken) != 3 {
		t.Fatalf("%d wake-ups, want 3 (one per release)", len(woken))
	}
	for i, e := range woken {
		me, before := order[i+1], order[i]
		watch := first(evs, func(x *sim.Event) bool { return x.Kind == sim.KindMark && x.Name == "watch" && x.Client == me })
		// the predecessor's unlock deletes its node after it leaves; the
		// watch may fire before that unlock's own reply comes back
		rel := first(evs, marked(before, sim.MarkLeave))
		got := first(evs, marked(me, sim.MarkAcquired))
		if e.Client != me || watch == nil || watch.Fact.Item != e.Fact.Item || rel == nil || got == nil ||
			!(watch.Seq < rel.Seq && rel.Seq < e.Seq && e.Seq < got.Seq) {
			t.Fatalf("wake-up %d: %v; want %s, watching %s's node, woken after %s left (%v) and before it acquired (%v)", i, e, me, before, before, rel, got)
		}
	}
}

// A lost create reply, unprotected. Argued before it ran: A's create makes
// job/lock-0000000000 and its reply is lost with the connection; A's
// client reconnects within its 2 s session, the retry makes lock-1, and A
// watches its own orphan. The orphan heads the queue: the lock's key is
// A's, A never learnt it (the create's reply was lost) and does not
// believe it holds, and an ephemeral node has no TTL while its session
// lives: deadlock at the horizon. B, behind A, never acquires; its wait
// is under the 10 s starvation needs, so deadlock alone. (The first run,
// B asking at 0.5 s, had B's node land between A's two: go-zookeeper
// waits a second before it reconnects to its one server. Deadlock all the
// same; B now asks at 2 s, after A's retry, so A waits behind itself.)
func TestZooKeeperLostCreateLeavesAnOrphanThatBlocks(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-lost-create"))
	lost := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindLost && e.Client == "A" })
	if lost == nil {
		t.Fatal("no lost reply of A's create")
	}
	orphan := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindExec && e.Req == lost.Req && e.Cmd[0] == "create" })
	watch := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Name == "watch" && e.Client == "A" })
	if orphan == nil || watch == nil || watch.Fact.Item != orphan.Cmd[1] {
		t.Fatalf("want A watching its own orphan node; got the orphan's create %v, A's watch %v", orphan, watch)
	}
	if a, b := first(evs, marked("A", sim.MarkAcquired)), first(evs, marked("B", sim.MarkAcquired)); a != nil || b != nil {
		t.Errorf("someone acquired behind the orphan: %v, %v", a, b)
	}
}

// The same lost reply, protected. Argued before it ran: the retry first
// looks for a node with A's GUID, finds the one its lost create made, and
// A holds with that one node; B acquires after A's release: safe, and no
// second node of A's.
func TestZooKeeperProtectedCreateSurvivesALostReply(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-lost-create-protected"))
	lost := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindLost && e.Client == "A" })
	var creates int
	for i := range evs {
		if e := &evs[i]; e.Kind == sim.KindExec && e.Client == "A" && e.Cmd[0] == "create" {
			creates++
		}
	}
	if lost == nil || creates != 1 {
		t.Fatalf("want A's create's reply lost and one node of A's; got %v, %d nodes", lost, creates)
	}
	if first(evs, marked("B", sim.MarkAcquired)) == nil {
		t.Error("B never acquired after A")
	}
}
