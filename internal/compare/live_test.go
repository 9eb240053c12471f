package compare

import (
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// logOf numbers events as a recorded log does.
func logOf(evs ...sim.Event) []sim.Event {
	for i := range evs {
		evs[i].Seq = i + 1
	}
	return evs
}

func mark(client, name string) sim.Event {
	return sim.Event{Kind: sim.KindMark, Client: client, Name: name}
}

func pause(client string) sim.Event {
	return sim.Event{Kind: sim.KindFault, Client: client, Name: string(sim.FaultPause)}
}

// Two runs beside each other, as they ran: the right's rows are reached
// when the left reaches the lock mark they lead up to, the rest at the
// left's end; a fault is met alike only at the same client's same mark.
// Argued first: the right's send before A's acquired is reached with the
// left's A acquired (row 1); its pause after A enters, and its send
// after that, lead up to B's acquired (left row 4); its verdict comes
// after the last mark, at the left's end (5). Both pause A after its 1st
// enter: met. With the right's pause after A's acquired instead, the
// left's pause (after enter) is not met.
func TestBesideLinesUpByMarks(t *testing.T) {
	none := func(int) check.SectionChange { return check.SectionChange{} }
	verdict := sim.Event{Kind: sim.KindVerdict, Name: sim.VerdictMutualExclusion}
	send := sim.Event{Kind: sim.KindSend, Client: "A"}
	left := Recorded(&scenario.Scenario{ID: "l"}, logOf(mark("A", sim.MarkAcquired), mark("A", sim.MarkEnter), pause("A"), mark("B", sim.MarkAcquired), verdict), none)
	right := Recorded(&scenario.Scenario{ID: "r"}, logOf(send, mark("A", sim.MarkAcquired), mark("A", sim.MarkEnter), pause("A"), send, mark("B", sim.MarkAcquired), verdict), none)
	res, met := Beside(left, right)
	if want := []int{1, 1, 2, 4, 4, 4, 5}; !slices.Equal(res.Right.At, want) {
		t.Errorf("the right's moments %v, want %v", res.Right.At, want)
	}
	if len(met) != 1 || !met[0].Placed || !res.Fair() || met[0].Where.En != "as A enters its critical section" {
		t.Errorf("met %+v: want A's pause as it enters, met alike", met)
	}
	if !slices.Equal(left.Verdicts, []string{sim.VerdictMutualExclusion}) {
		t.Errorf("left verdicts %v", left.Verdicts)
	}
	elsewhere := Recorded(&scenario.Scenario{ID: "r"}, logOf(mark("A", sim.MarkAcquired), pause("A"), mark("A", sim.MarkEnter), mark("B", sim.MarkAcquired), verdict), none)
	res, met = Beside(left, elsewhere)
	if len(met) != 1 || met[0].Placed || res.Fair() {
		t.Errorf("a pause at another mark should not be met: %+v", met)
	}
}

// Like gives a lesson's alike lessons, each once, and none for a lesson
// in no set.
func TestLike(t *testing.T) {
	if got := Like("etcd-pause-past-lease"); !slices.Equal(got, []string{"zookeeper-frozen-holder", "lease-pause-stale-write"}) {
		t.Errorf("etcd-pause-past-lease is like %v", got)
	}
	if got := Like("zookeeper-frozen-holder"); !slices.Equal(got, []string{"etcd-pause-past-lease", "lease-pause-stale-write", "etcd-plain-put"}) {
		t.Errorf("zookeeper-frozen-holder is like %v", got)
	}
	if got := Like("no-lock-oversell"); got != nil {
		t.Errorf("no-lock-oversell is like %v, want none", got)
	}
}

// Every lesson Alike names is a lesson: of the catalog, with clients A
// and B, or of etcd or ZooKeeper.
func TestAlikeNamesLessons(t *testing.T) {
	f := catalog(t)
	for _, set := range Alike {
		for _, id := range set {
			_, e := etcd.Find(id)
			_, z := zookeeper.Find(id)
			sc, c := f.Find(id)
			if !e && !z && !c {
				t.Errorf("Alike names %s, which is no lesson", id)
			}
			if c && (len(sc.Clients) != 2 || sc.Clients[0].Name != "A" || sc.Clients[1].Name != "B") {
				t.Errorf("%s: clients %+v, want A and B as the live lessons have", id, sc.Clients)
			}
		}
	}
}
