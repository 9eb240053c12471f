package check

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// queueLog is a queue lock's story as etcd's adapter tells it: A's key is
// first (A holds); B queues behind it (A still holds); A unlocks, and its
// delete leaves B's key first (B holds, though A's command made the
// change); B's lease ends (no one holds); then B, who still believes,
// writes the resource with the answer and keys given.
func queueLog(answer sim.AnswerType, keys []sim.KeyState) []sim.Event {
	held := func(owner string) []sim.KeyState {
		return []sim.KeyState{{Key: "job", Type: "string", Value: "job/" + owner, Owner: owner, TTL: 1000}}
	}
	mark := func(t time.Duration, who, name string) sim.Event {
		return sim.Event{T: t, Kind: sim.KindMark, Client: who, Name: name, Lock: "job"}
	}
	ms := time.Millisecond
	return []sim.Event{
		{Kind: sim.KindExec, Client: "A", Node: "etcd", Cmd: []string{"Put", "job/A"}, Keys: held("A")},
		mark(0, "A", sim.MarkAcquired),
		{T: 200 * ms, Kind: sim.KindExec, Client: "B", Node: "etcd", Cmd: []string{"Put", "job/B"}, Keys: held("A")},
		mark(300*ms, "A", sim.MarkReleased),
		{T: 300 * ms, Kind: sim.KindExec, Client: "A", Node: "etcd", Cmd: []string{"DeleteRange", "job/A"}, Keys: held("B")},
		mark(300*ms, "B", sim.MarkAcquired),
		{T: 1500 * ms, Kind: sim.KindExpire, Node: "etcd", Keys: []sim.KeyState{{Key: "job", TTL: -2}}},
		{T: 3 * time.Second, Kind: sim.KindExec, Client: "B", Node: "etcd", Cmd: []string{"Put", "account", "B"},
			Answer: sim.Answer{Type: answer}, Keys: keys},
	}
}

// The holder of a queue lock is the waiter its key state names, not the
// client whose command changed it: A's Unlock leaves B's key first, and B
// holds. Argued first: B held from A's delete until its own lease ended
// at 1.5s; its Put of the account at 3s lands: stale-write. Without
// Options.Queues the model makes A (the deleter) the holder of B's key, B
// never held by the keys, and no verdict is found; without
// Options.Resource the Put is no write.
func TestQueueLockHolderIsNamedByTheKeyState(t *testing.T) {
	opt := Options{Locks: []string{"job"}, Queues: []string{"job"}, Resource: "account"}
	run := func(evs []sim.Event) []string {
		c := New(opt)
		for i := range evs {
			evs[i].Seq = i + 1
			c.Observe(&evs[i])
		}
		c.Finish()
		return c.Verdicts()
	}
	landed := queueLog(sim.AnswerOK, []sim.KeyState{{Key: "account", Type: "string", Value: "B", TTL: -1}})
	if got := run(landed); !slices.Equal(got, []string{StaleWrite}) {
		t.Errorf("a plain Put after the lease ended: got %v, want [stale-write]", got)
	}
	// the guarded Txn whose IsOwner failed wrote nothing: safe
	if got := run(queueLog(sim.AnswerNil, nil)); !slices.Equal(got, []string{Safe}) {
		t.Errorf("a refused Txn: got %v, want [safe]", got)
	}
	c := New(opt)
	evs := queueLog(sim.AnswerOK, nil)[:5]
	for i := range evs {
		evs[i].Seq = i + 1
		c.Observe(&evs[i])
		if i == 2 && (!c.model.holds("A", 0, "job") || c.model.holds("B", 0, "job")) {
			t.Errorf("B queued: A holds %t, B holds %t; want A only", c.model.holds("A", 0, "job"), c.model.holds("B", 0, "job"))
		}
	}
	if c.model.holds("A", 0, "job") || !c.model.holds("B", 0, "job") {
		t.Errorf("A unlocked: A holds %t, B holds %t; want B only", c.model.holds("A", 0, "job"), c.model.holds("B", 0, "job"))
	}
}

// A queue lock's head made by a request whose reply was lost (ZooKeeper's
// create, its reply lost with the connection): the owner's own exec names
// it the owner, it never learns it, and the node has no TTL. Argued
// first: deadlock, because A holds and never learnt it (the reply was
// lost); B, queued behind, cannot free it. Without the request kept on the
// queue's holder the model cannot tell that A does not know, and reads
// A's retry as a re-entry instead ("it waits for itself"), which misses
// the cause.
func TestQueueLockHeadFromALostReplyIsADeadlock(t *testing.T) {
	held := []sim.KeyState{{Key: "job", Type: "string", Value: "job/lock-0", Owner: "A", TTL: -1}}
	evs := []sim.Event{
		{Kind: sim.KindSend, Client: "A", Node: "zookeeper", Cmd: []string{"create", "job/lock-"}},
		{Kind: sim.KindExec, Client: "A", Node: "zookeeper", Req: 1, Cmd: []string{"create", "job/lock-0"}, Keys: held},
		{Kind: sim.KindLost, Name: "reply", Client: "A", Node: "zookeeper", Req: 1, Cmd: []string{"create", "job/lock-"}},
		{Kind: sim.KindExec, Client: "A", Node: "zookeeper", Cmd: []string{"create", "job/lock-1"}, Keys: held},
		{Kind: sim.KindMark, Client: "A", Name: "watch", Lock: "job"},
		{Kind: sim.KindExec, Client: "B", Node: "zookeeper", Cmd: []string{"create", "job/lock-2"}, Keys: held},
	}
	c := New(Options{Locks: []string{"job"}, Queues: []string{"job"}})
	for i := range evs {
		evs[i].Seq = i + 1
		c.Observe(&evs[i])
	}
	out := c.Finish()
	if got := c.Verdicts(); !slices.Equal(got, []string{Deadlock}) {
		t.Fatalf("got %v, want [deadlock]", got)
	}
	if say := out[0].Say.En; !strings.Contains(say, "never learnt it: the reply was lost") {
		t.Errorf("the deadlock says %q, want that A never learnt it", say)
	}
}
