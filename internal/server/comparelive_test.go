package server

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// answerWithin is the answer to a request, a typ message or an error,
// within d: a comparison with a lesson in real time waits for that run's
// end.
func (c *client) answerWithin(typ string, d time.Duration) Message {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(d))
	for {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for a %s message: %v", typ, err)
		}
		c.keep(&m)
		if m.Type == typ || m.Type == "error" {
			return m
		}
	}
}

// verdictNames are a side's verdicts by name.
func verdictNames(sd *compareSide) []string {
	var out []string
	for _, v := range sd.Verdicts {
		out = append(out, v.Name)
	}
	return out
}

// markRow is the row of a side where client reports mark the first time.
func markRow(sd *compareSide, client, mark string) (compareRow, bool) {
	i := slices.IndexFunc(sd.Rows, func(r compareRow) bool { return r.Kind == "mark" && r.Client == client && r.Name == mark })
	if i < 0 {
		return compareRow{}, false
	}
	return sd.Rows[i], true
}

// checkBeside holds a comparison with a run in real time to what it must
// say: each side's verdicts (the lessons' own: a live run is compared at
// the verdict level), the left's one fault met alike on the right (a
// pause of A at the same mark), the limits of real time in both
// languages, and the right's rows reached when the left reaches the mark
// they lead up to (A's entry beside A's entry), the rest at the left's end.
func checkBeside(t *testing.T, a compareAnswer, left, right []string, services int) {
	t.Helper()
	if a.Left == nil || a.Right == nil {
		t.Fatalf("want both sides, got %+v", a)
	}
	if got := verdictNames(a.Left); !slices.Equal(got, left) {
		t.Errorf("left %s: verdicts %v, want %v", a.Left.ID, got, left)
	}
	if got := verdictNames(a.Right); !slices.Equal(got, right) {
		t.Errorf("right %s: verdicts %v, want %v", a.Right.ID, got, right)
	}
	if len(a.Faults) != 1 || !a.Faults[0].Placed || !a.Fair || !strings.Contains(a.Faults[0].Where.En, "A ") || a.Faults[0].Where.Zh == "" {
		t.Errorf("faults %+v (fair %v): want A's pause, met alike on the right", a.Faults, a.Fair)
	}
	if len(a.Live) != services+1 {
		t.Fatalf("live %+v: want %d sides in real time said, and how the rows line up", a.Live, services)
	}
	for _, l := range a.Live {
		if l.En == "" || l.Zh == "" {
			t.Errorf("the limits of real time should be said in both languages, got %+v", l)
		}
	}
	if !strings.Contains(a.Live[0].En, "verdict level, not by the milliseconds") {
		t.Errorf("the first note should say what a live side lets one compare, got %q", a.Live[0].En)
	}
	for _, mark := range []string{"acquired", "enter"} {
		l, okL := markRow(a.Left, "A", mark)
		r, okR := markRow(a.Right, "A", mark)
		if !okL || !okR || l.At != r.At {
			t.Errorf("A's first %s: left at %d, right at %d: want the same moment", mark, l.At, r.At)
		}
	}
	end := a.Left.Rows[len(a.Left.Rows)-1].At
	if last := a.Right.Rows[len(a.Right.Rows)-1]; last.At != end {
		t.Errorf("the right's last row (%s) at %d: want it at the left's end, %d", last.Kind, last.At, end)
	}
}

// A live etcd lesson beside the Redis lesson of the same workload, both
// ways. Argued first: etcd-pause-past-lease ends mutual-exclusion (A
// frozen 3 s inside against a 1 s lease; B enters); lease-pause-stale-
// write, run as it is (A frozen 5 s as it enters, a 3 s TTL, then both
// write), ends mutual-exclusion and stale-write; each side pauses A as it
// enters, so the fault is met alike. The live side is its recorded log,
// so it must have ended; from the Redis lesson, the etcd lesson is run
// afresh, in real time.
func TestALiveRunSideBySideWithRedis(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := dial(t, liveServer(t, svc), "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "etcd-pause-past-lease"})
	c.next("state")
	c.send(map[string]any{"op": "compare"})
	list := compareExtra(t, c.next("compare"))
	if !slices.Contains(list.Alike, "lease-pause-stale-write") || !slices.Contains(list.Alike, "zookeeper-frozen-holder") || list.Left != nil {
		t.Fatalf("the live lesson's list should offer its Redis and ZooKeeper likes, got %+v", list)
	}
	c.send(map[string]any{"op": "compare", "with": "lease-pause-stale-write"})
	if m := c.next("error"); m.Code != "compare-live-running" || m.Args["service"] != "etcd" {
		t.Fatalf("a live run not yet ended should be refused with compare-live-running, got %s (%s)", m.Code, m.Error)
	}
	c.send(map[string]any{"op": "seek", "step": 50000})
	c.follow(nil, 30*time.Second, func(s *Snapshot) bool { return s.Ended })
	c.send(map[string]any{"op": "compare", "with": "lease-pause-stale-write"})
	m := c.answerWithin("compare", 30*time.Second)
	if m.Type == "error" {
		t.Fatalf("compare: %s (%s)", m.Code, m.Error)
	}
	a := compareExtra(t, m)
	if a.With != "lease-pause-stale-write" || a.Left.ID != "etcd-pause-past-lease" {
		t.Fatalf("with %q, left %q", a.With, a.Left.ID)
	}
	checkBeside(t, a, []string{"mutual-exclusion"}, []string{"mutual-exclusion", "stale-write"}, 1)
	if !strings.Contains(a.Live[0].En, "left ran in real time on a live etcd server") {
		t.Errorf("the live side is the left: got %q", a.Live[0].En)
	}
	// A lesson of the same clients without the pause (no-lock-oversell:
	// no faults at all) runs beside it, and the answer says that A's
	// pause was not met there: not the same test.
	c.send(map[string]any{"op": "compare", "with": "no-lock-oversell"})
	if a := compareExtra(t, c.answerWithin("compare", 30*time.Second)); a.Fair || len(a.Faults) != 1 || a.Faults[0].Placed {
		t.Errorf("beside a lesson without the pause, want A's pause unmet and the test not fair, got %+v (fair %v)", a.Faults, a.Fair)
	}
	// A lesson with other clients cannot be compared.
	c.send(map[string]any{"op": "compare", "with": "blind-del-long-work"})
	if m := c.next("error"); m.Code != "compare-clients" {
		t.Errorf("other clients should be refused with compare-clients, got %s (%s)", m.Code, m.Error)
	}

	// The other way: the Redis lesson, the etcd one run afresh beside it.
	c.send(map[string]any{"op": "load", "scenario": "lease-pause-stale-write"})
	c.next("state")
	c.send(map[string]any{"op": "compare", "with": "etcd-pause-past-lease"})
	m = c.answerWithin("compare", 40*time.Second)
	if m.Type == "error" {
		t.Fatalf("compare: %s (%s)", m.Code, m.Error)
	}
	a = compareExtra(t, m)
	checkBeside(t, a, []string{"mutual-exclusion", "stale-write"}, []string{"mutual-exclusion"}, 1)
	if !strings.Contains(a.Live[0].En, "right ran in real time on a live etcd server") || !slices.Contains(a.Alike, "etcd-pause-past-lease") {
		t.Errorf("the live side is the right, and the Redis lesson lists its likes: got %q, %v", a.Live[0].En, a.Alike)
	}
}

// etcd beside ZooKeeper, both in real time. Argued first: etcd-guarded-
// write ends safe (A frozen 3 s after its Lock returns, its Txn If
// IsOwner refused); zookeeper-czxid-fencing ends safe too (A frozen 2 s
// after its Lock returns, its write with the older czxid refused); each
// pauses A as it takes the lock, so the fault is met alike.
func TestEtcdSideBySideWithZooKeeper(t *testing.T) {
	if err := zookeeper.Available(); err != nil {
		t.Skip(err)
	}
	esvc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	zsvc, err := zookeeper.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	_, url := liveApp(t, esvc, zsvc)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "etcd-guarded-write"})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 50000})
	c.follow(nil, 30*time.Second, func(s *Snapshot) bool { return s.Ended })
	c.send(map[string]any{"op": "compare", "with": "zookeeper-czxid-fencing"})
	m := c.answerWithin("compare", 60*time.Second)
	if m.Type == "error" {
		t.Fatalf("compare: %s (%s)", m.Code, m.Error)
	}
	a := compareExtra(t, m)
	checkBeside(t, a, []string{"safe"}, []string{"safe"}, 2)
	if !strings.Contains(a.Live[1].En, "right ran in real time on a live ZooKeeper server") {
		t.Errorf("both sides are live: got %+v", a.Live)
	}
}
