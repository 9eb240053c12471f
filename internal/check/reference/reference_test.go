package reference

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/redis/go-redis/v9"
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

// logb builds a log by hand, one event at a time; each method returns the
// event's seq.
type logb struct {
	evs []sim.Event
	now time.Duration
}

func (b *logb) at(t time.Duration) *logb { b.now = t; return b }

func (b *logb) add(e sim.Event) int {
	e.Seq, e.T = len(b.evs)+1, b.now
	b.evs = append(b.evs, e)
	return e.Seq
}

// who splits "A" or "A/req1" into client and thread.
func who(w string) (string, string) {
	for i := range w {
		if w[i] == '/' {
			return w[:i], w[i+1:]
		}
	}
	return w, "main"
}

// cmd sends a command and executes it: send, then exec with the keys after.
func (b *logb) cmd(w, node string, args []string, reply string, keys ...sim.KeyState) (send, exec int) {
	c, th := who(w)
	send = b.add(sim.Event{Kind: sim.KindSend, Client: c, Thread: th, Node: node, Cmd: args})
	exec = b.add(sim.Event{Kind: sim.KindExec, Client: c, Thread: th, Node: node, Req: send, Cmd: args, Reply: reply, Answer: AnswerOf(reply), Keys: keys})
	return send, exec
}

// AnswerOf is the typed answer of a reply as the text form writes it (for
// the tests that write replies, or read logs, as text),
// which the text does not carry: a reply of several answers (a pipeline,
// MULTI ... EXEC) by its last, an array of one answer that is not a
// string by that answer, as the engine sums them up.
func AnswerOf(reply string) sim.Answer {
	parts := strings.Split(reply, "; ")
	last := parts[len(parts)-1]
	if items, ok := strings.CutPrefix(last, "["); ok {
		items = strings.TrimSuffix(items, "]")
		if n := strings.Count(items, ", ") + 1; n > 1 || items == "" || strings.HasPrefix(items, "\"") {
			return sim.Answer{Type: sim.AnswerList, Gist: strconv.Itoa(n)}
		}
		last = items
	}
	switch {
	case last == "OK":
		return sim.Answer{Type: sim.AnswerOK}
	case last == "(nil)":
		return sim.Answer{Type: sim.AnswerNil}
	case last == "(empty array)":
		return sim.Answer{Type: sim.AnswerEmpty}
	case strings.HasPrefix(last, "(integer) "):
		return sim.Answer{Type: sim.AnswerInt, Gist: strings.TrimPrefix(last, "(integer) ")}
	case strings.HasPrefix(last, "(error) "):
		return sim.Answer{Type: sim.AnswerError}
	case strings.HasPrefix(last, "\""):
		return sim.Answer{Type: sim.AnswerString}
	}
	return sim.Answer{Type: sim.AnswerStatus, Gist: last}
}

// reply delivers a request's reply.
func (b *logb) reply(w, node string, req int) int {
	c, th := who(w)
	return b.add(sim.Event{Kind: sim.KindReply, Client: c, Thread: th, Node: node, Req: req})
}

// call is cmd plus its reply.
func (b *logb) call(w, node string, args []string, reply string, keys ...sim.KeyState) int {
	send, exec := b.cmd(w, node, args, reply, keys...)
	b.reply(w, node, send)
	return exec
}

func (b *logb) mark(w, name, lock string) int {
	c, th := who(w)
	return b.add(sim.Event{Kind: sim.KindMark, Client: c, Thread: th, Name: name, Lock: lock})
}

func (b *logb) token(w, lock string, token int64) int {
	c, th := who(w)
	return b.add(sim.Event{Kind: sim.KindMark, Client: c, Thread: th, Name: sim.MarkToken, Lock: lock, Fact: &fact.Fact{Key: fact.Token, Token: token}})
}

func (b *logb) done(w string, err error) int {
	c, th := who(w)
	return b.add(sim.Event{Kind: sim.KindDone, Client: c, Thread: th, Fact: fact.Error(err)})
}

func (b *logb) fault(name, client, node string, keys ...sim.KeyState) int {
	return b.add(sim.Event{Kind: sim.KindFault, Name: name, Client: client, Node: node, Keys: keys})
}

func (b *logb) expire(node string, k sim.KeyState) int {
	return b.add(sim.Event{Kind: sim.KindExpire, Node: node, Keys: []sim.KeyState{k}})
}

func (b *logb) init(node string, keys ...sim.KeyState) int {
	return b.add(sim.Event{Kind: sim.KindInit, Node: node, Keys: keys})
}

// acquire is a SET NX that took the lock, its reply and the acquired and
// enter marks; it returns the exec.
func (b *logb) acquire(w, node, key, value string, ttl int64) int {
	c, _ := who(w)
	exec := b.call(w, node, []string{"SET", key, value, "NX"}, "OK", str(key, value, c, ttl))
	b.mark(w, "acquired", key)
	b.mark(w, "enter", key)
	return exec
}

func str(key, value, owner string, ttl int64) sim.KeyState {
	return sim.KeyState{Key: key, Type: "string", Value: value, Owner: owner, TTL: ttl}
}

func hash(key, value string, ttl int64) sim.KeyState {
	return sim.KeyState{Key: key, Type: "hash", Value: value, TTL: ttl}
}

func gone(key string) sim.KeyState { return sim.KeyState{Key: key, TTL: -2} }

func opts(locks ...string) check.Options {
	return check.Options{StockKey: "stock", Locks: locks}
}

func want(t *testing.T, got []Verdict, want ...Verdict) {
	t.Helper()
	if !slices.EqualFunc(got, want, func(a, b Verdict) bool {
		return a.Name == b.Name && a.After == b.After && slices.Equal(a.Refs, b.Refs)
	}) {
		t.Errorf("verdicts = %v, want %v", got, want)
	}
}

func v(name string, after int, refs ...int) Verdict {
	return Verdict{Name: name, Refs: refs, After: after}
}

// Two clients inside the same resource at once: mutual exclusion, proved
// by the enter of the one already inside and the new enter, reported right
// after the new one.
func TestMutualExclusion(t *testing.T) {
	b := &logb{}
	b.acquire("A", "redis", "lock", "a", 1000)
	enterA := len(b.evs)
	b.at(time.Second).expire("redis", gone("lock"))
	b.acquire("B", "redis", "lock", "b", 1000)
	enterB := len(b.evs)
	want(t, Check(b.evs, opts("lock")), v(mutualExclusion, enterB, enterA, enterB))
}

// Issue 9, class 1: locks on different keys are different critical
// sections. A inside lock:a and B inside lock:b break nothing.
func TestDifferentKeysAreDifferentResources(t *testing.T) {
	b := &logb{}
	b.acquire("A", "redis", "lock:a", "a", 1000)
	b.acquire("B", "redis", "lock:b", "b", 1000)
	want(t, Check(b.evs, opts("lock:a", "lock:b")), v(safe, 0))
}

// Two threads of one process are two threads: a pool thread entering
// beside another of the same client breaks mutual exclusion.
func TestMutualExclusionSameProcess(t *testing.T) {
	b := &logb{}
	b.mark("A/req1", "enter", "lock")
	e2 := b.mark("A/req2", "enter", "lock")
	want(t, Check(b.evs, opts("lock")), v(mutualExclusion, e2, 1, e2))
}

// A thread is inside a lock once: entering again without having left (a
// request that kept the lock) moves its entry, and a later intruder is
// shown against the second enter.
func TestSecondEnterMovesTheEntry(t *testing.T) {
	b := &logb{}
	b.mark("A", "enter", "lock")
	second := b.mark("A", "enter", "lock")
	intruder := b.mark("B", "enter", "lock")
	want(t, Check(b.evs, opts("lock")), v(mutualExclusion, intruder, second, intruder))
}

// A blind DEL after A's lease ran out removes B's lock while B, alive,
// still believes it holds it: a foreign unlock, proved by the exec that
// gave B the key and A's DEL.
func TestForeignUnlock(t *testing.T) {
	b := &logb{}
	b.acquire("A", "redis", "lock", "a", 1000)
	enterA := len(b.evs)
	b.at(time.Second).expire("redis", gone("lock"))
	gaveB := b.acquire("B", "redis", "lock", "b", 1000)
	enterB := len(b.evs)
	del := b.call("A", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
	// A never left: B's enter is a mutual exclusion too.
	want(t, Check(b.evs, opts("lock")), v(mutualExclusion, enterB, enterA, enterB), v(foreignUnlock, del, gaveB, del))
}

// A key whose expiry time has passed (by a millisecond or more) when an
// event shows it went by expiry first: a DEL then removes nobody's lock.
// At the very millisecond of its expiry it is still there.
func TestExpiryPassedBeforeTheEvent(t *testing.T) {
	for _, at := range []time.Duration{1000 * time.Millisecond, 1001 * time.Millisecond} {
		b := &logb{}
		k := str("lock", "a", "A", 1000)
		k.Expire = 1000
		gaveA := b.call("A", "redis", []string{"SET", "lock", "a", "NX", "PX", "1000"}, "OK", k)
		b.mark("A", "acquired", "lock")
		del := b.at(at).call("B", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
		got := Check(b.evs, opts("lock"))
		if at == 1000*time.Millisecond {
			want(t, got, v(foreignUnlock, del, gaveA, del))
		} else {
			want(t, got, v(safe, 0))
		}
	}
}

// Issue 9, class 2: a hash lock whose field is a bare thread id. A's lease
// runs out, B (another process, same thread id exec-1) takes the key, and
// A's late unlock decrements the count to zero and deletes it: B, alive
// and believing, lost its lock to A. The owner is who wrote the key, not
// the field's name.
func TestForeignUnlockBareThreadID(t *testing.T) {
	b := &logb{}
	b.call("A", "redis", []string{"EVAL", "lock", "exec-1"}, "(nil)", hash("lock", "exec-1=1", 3000))
	b.mark("A", "acquired", "lock")
	b.at(3*time.Second).expire("redis", gone("lock"))
	gaveB := b.call("B", "redis", []string{"EVAL", "lock", "exec-1"}, "(nil)", hash("lock", "exec-1=1", 3000))
	b.mark("B", "acquired", "lock")
	del := b.call("A", "redis", []string{"EVAL", "unlock", "lock", "exec-1"}, "(integer) 1", gone("lock"))
	want(t, Check(b.evs, opts("lock")), v(foreignUnlock, del, gaveB, del))
}

// With a bare thread id, a second process entering under the same field
// joins the holders (the count goes up): both hold the key, and the one
// that leaves (count down) is no longer among them.
func TestBareThreadIDJoinsAndLeaves(t *testing.T) {
	b := &logb{}
	b.call("A", "redis", []string{"EVAL", "lock", "exec-1"}, "(nil)", hash("lock", "exec-1=1", -1))
	b.mark("A", "acquired", "lock")
	b.call("B", "redis", []string{"EVAL", "lock", "exec-1"}, "(nil)", hash("lock", "exec-1=2", -1))
	b.mark("B", "acquired", "lock")
	b.call("A", "redis", []string{"EVAL", "unlock", "lock", "exec-1"}, "(integer) 0", hash("lock", "exec-1=1", -1))
	b.mark("A", "released", "lock")
	m := newModel(opts("lock"))
	for i := range b.evs {
		m.event(&b.evs[i])
	}
	k := m.nodes["redis"].keys["lock"]
	if len(k.holders) != 1 || k.holders[0].t.client != "B" || k.holders[0].since != 6 {
		t.Errorf("holders = %+v, want B alone, since #6 (when it joined)", k.holders)
	}
}

// Issue 9, class 5: the timestamp lock's recovery deletes the lock of a
// holder that crashed. Nobody alive believed it held it: no foreign unlock.
func TestRecoveryOfCrashedHolderIsNoForeignUnlock(t *testing.T) {
	b := &logb{}
	b.call("A", "redis", []string{"SETNX", "lock", "100"}, "(integer) 1", str("lock", "100", "A", -1))
	b.mark("A", "acquired", "lock")
	b.fault("crash", "A", "")
	b.at(2*time.Second).call("B", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
	b.call("B", "redis", []string{"SETNX", "lock", "200"}, "(integer) 1", str("lock", "200", "B", -1))
	b.mark("B", "acquired", "lock")
	b.call("B", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
	b.mark("B", "released", "lock")
	want(t, Check(b.evs, opts("lock")), v(safe, 0))
}

// Issue 9, class 3: SETNX succeeds but its reply is lost; A never learns
// it holds the lock, the key has no TTL, and nobody can ever take it: a
// deadlock, proved by the exec that gave A the key and the lost reply.
func TestDeadlockReplyLost(t *testing.T) {
	b := &logb{}
	send, exec := b.cmd("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 1", str("lock", "a", "A", -1))
	lost := b.add(sim.Event{Kind: sim.KindLost, Name: "reply", Client: "A", Thread: "main", Node: "redis", Req: send})
	b.at(time.Second).add(sim.Event{Kind: sim.KindTimeout, Client: "A", Thread: "main", Node: "redis", Req: send})
	b.call("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 0", str("lock", "a", "A", -1))
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, exec, lost))
}

// Issue 9, class 3: a crash between SETNX and EXPIRE, then a restart of
// the same client. The new incarnation is a new process: it cannot
// release what the dead one took, and the key never expires.
func TestDeadlockCrashThenRestart(t *testing.T) {
	b := &logb{}
	exec := b.call("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 1", str("lock", "a", "A", -1))
	b.mark("A", "acquired", "lock")
	crash := b.fault("crash", "A", "")
	b.at(time.Second).fault("restart", "A", "")
	b.call("A", "redis", []string{"SETNX", "lock", "a2"}, "(integer) 0", str("lock", "a", "A", -1))
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, exec, crash))
}

// A holder killed by its client's first crash is explained by that crash,
// not by a later crash of the restarted client.
func TestDeadlockNamesTheCrashThatKilledTheHolder(t *testing.T) {
	b := &logb{}
	exec := b.call("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 1", str("lock", "a", "A", -1))
	b.mark("A", "acquired", "lock")
	crash := b.fault("crash", "A", "")
	b.fault("restart", "A", "")
	b.call("A", "redis", []string{"SETNX", "lock", "a2"}, "(integer) 0", str("lock", "a", "A", -1))
	b.fault("crash", "A", "")
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, exec, crash))
}

// Issue 9, class 4: a lease that outlives the horizon is no deadlock; it
// will expire, whoever holds it.
func TestLongLeaseIsNoDeadlock(t *testing.T) {
	b := &logb{}
	b.call("A", "redis", []string{"SET", "lock", "a", "NX", "PX", "5000"}, "OK", str("lock", "a", "A", 5000))
	b.mark("A", "acquired", "lock")
	b.fault("crash", "A", "")
	want(t, Check(b.evs, opts("lock")), v(safe, 0))
}

// Issue 9, class 4: a re-entrant lock whose nested acquire succeeded (the
// count went up) but whose reply fell past the horizon: the thread did not
// wait for itself, it was about to go on.
func TestNestedAcquireInFlightIsNoDeadlock(t *testing.T) {
	b := &logb{}
	b.call("A", "redis", []string{"EVAL", "lock", "u:1"}, "(nil)", hash("lock", "u:1=1", -1))
	b.mark("A", "acquired", "lock")
	b.mark("A", "enter", "lock")
	b.mark("A", "reenter", "lock")
	b.cmd("A", "redis", []string{"EVAL", "lock", "u:1"}, "(nil)", hash("lock", "u:1=2", -1))
	want(t, Check(b.evs, opts("lock")), v(safe, 0))
}

// A lock that is not re-entrant asked for again by its live holder: every
// attempt since the reenter leaves the key as it was, and the key has no
// TTL. The holder waits for itself: deadlock, proved by the exec that gave
// it the key and its reenter mark.
func TestDeadlockWaitsForItself(t *testing.T) {
	b := &logb{}
	exec := b.call("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 1", str("lock", "a", "A", -1))
	b.mark("A", "acquired", "lock")
	b.mark("A", "enter", "lock")
	re := b.mark("A", "reenter", "lock")
	b.call("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 0", str("lock", "a", "A", -1))
	b.at(time.Second).call("A", "redis", []string{"SETNX", "lock", "a"}, "(integer) 0", str("lock", "a", "A", -1))
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, exec, re))
}

// A holder that ended with an error can never release: deadlock, proved by
// its exec and its done.
func TestDeadlockHolderFailed(t *testing.T) {
	b := &logb{}
	exec := b.acquire("A", "redis", "lock", "a", -1)
	done := b.done("A", redis.Nil)
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, exec, done))
}

// B finds the lock held by A, alive and working, for 11s: starvation,
// proved by B's first and last refused attempts and the exec that gave A
// the key. A can release it, so it is no deadlock.
func TestStarvation(t *testing.T) {
	b := &logb{}
	gaveA := b.acquire("A", "redis", "lock", "a", -1)
	b.at(time.Second)
	first := b.call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	b.at(6*time.Second).call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	last := b.at(11*time.Second).call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	want(t, Check(b.evs, opts("lock")), v(starvation, 0, gaveA, first, last))
}

// Starvation is about the wait still going on at the horizon: B was
// refused, then got the lock and gave it back, and has since been refused
// for 11s. Its first refused attempt is the first of that wait.
func TestStarvationCountsTheCurrentWait(t *testing.T) {
	b := &logb{}
	b.call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "c", "C", 500))
	b.at(time.Second).expire("redis", gone("lock"))
	b.acquire("B", "redis", "lock", "b", -1)
	b.call("B", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
	b.mark("B", "leave", "lock")
	b.mark("B", "released", "lock")
	gaveA := b.acquire("A", "redis", "lock", "a", -1)
	b.at(2 * time.Second)
	first := b.call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	last := b.at(13*time.Second).call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	want(t, Check(b.evs, opts("lock")), v(starvation, 0, gaveA, first, last))
}

// Refused for less than 10s is not starvation.
func TestShortWaitIsNoStarvation(t *testing.T) {
	b := &logb{}
	b.acquire("A", "redis", "lock", "a", -1)
	b.at(time.Second).call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	b.at(9*time.Second).call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", -1))
	want(t, Check(b.evs, opts("lock")), v(safe, 0))
}

// A's lease ran out before its write reached the storage: the storage took
// a write from a thread that believes it holds the lock but does not.
// Proved by the exec that began A's holding, the expiry that ended it, and
// the WRITE.
func TestStaleWriteLeaseExpired(t *testing.T) {
	b := &logb{}
	exec := b.acquire("A", "redis", "lock", "a", 1000)
	exp := b.at(time.Second).expire("redis", gone("lock"))
	w := b.call("A", "storage", []string{"WRITE", "file", "by-A"}, "OK", str("file", "by-A", "", -1))
	want(t, Check(b.evs, opts("lock")), v(staleWrite, w, exec, exp, w))
}

// Issue 9, class 7: Redlock on 5 masters, quorum 3. A held 3, then r3's
// clock jumped and A's key there expired: A holds 2 of 5 and still
// believes. Its write is stale. Proved by the exec that gave A its third
// vote, the expiry that took it below the quorum, and the WRITE.
func TestStaleWriteBelowQuorum(t *testing.T) {
	b := &logb{}
	var third int
	for _, n := range []string{"r1", "r2", "r3"} {
		third = b.call("A", n, []string{"SET", "lock", "a", "NX"}, "OK", str("lock", "a", "A", 10000))
	}
	b.mark("A", "acquired", "lock")
	enterA := b.mark("A", "enter", "lock")
	b.fault("clock-jump", "", "r3")
	fell := b.expire("r3", gone("lock"))
	for _, n := range []string{"r3", "r4", "r5"} {
		b.call("B", n, []string{"SET", "lock", "b", "NX"}, "OK", str("lock", "b", "B", 10000))
	}
	b.mark("B", "acquired", "lock")
	enterB := b.mark("B", "enter", "lock")
	w := b.call("A", "storage", []string{"WRITE", "file", "by-A"}, "OK", str("file", "by-A", "", -1))
	o := opts("lock")
	o.Quorum = map[string]int{"lock": 3}
	want(t, Check(b.evs, o), v(mutualExclusion, enterB, enterA, enterB), v(staleWrite, w, third, fell, w))
}

// A fenced write (TOKEN n) is stale only if another client was issued a
// token after the writer's: the storage could have known. Without one, the
// token is still the newest and the write is not reported.
func TestStaleWriteFenced(t *testing.T) {
	for _, newer := range []bool{true, false} {
		b := &logb{}
		exec := b.acquire("A", "redis", "lock", "a", 1000)
		b.token("A", "lock", 1)
		exp := b.at(time.Second).expire("redis", gone("lock"))
		tokB := 0
		if newer {
			b.acquire("B", "redis", "lock", "b", 1000)
			tokB = b.token("B", "lock", 2)
		}
		c, th := who("A")
		send := b.add(sim.Event{Kind: sim.KindSend, Client: c, Thread: th, Node: "storage", Cmd: []string{"WRITE", "file", "by-A", "TOKEN", "1"}})
		w := b.add(sim.Event{Kind: sim.KindExec, Client: c, Thread: th, Node: "storage", Req: send, Cmd: []string{"WRITE", "file", "by-A", "TOKEN", "1"},
			Reply: "OK", Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{str("file", "by-A", "", -1)}, Fact: &fact.Fact{Key: fact.TokenAccepted, Token: 1, Highest: 1}})
		o := opts("lock")
		o.FencedStorage = true
		got := Check(b.evs, o)
		if newer {
			want(t, got, v(mutualExclusion, 12, exec+3, 12), v(staleWrite, w, exec, exp, tokB, w))
		} else {
			want(t, got, v(safe, 0))
		}
	}
}

// A's lease (token 1) ends; B takes the lock with an algorithm that draws
// no token (Options.Tokenless); A's write with token 1 is accepted by the
// fenced storage, which never saw a larger token. B came to hold the lock
// after A's token: a stale write, proved by B's SET. Without B among the
// token-less (a fencing client whose token is not issued yet), not stale.
func TestStaleWriteFencedTokenlessHolder(t *testing.T) {
	for _, tokenless := range []bool{true, false} {
		b := &logb{}
		exec := b.acquire("A", "redis", "lock", "a", 1000)
		b.token("A", "lock", 1)
		exp := b.at(time.Second).expire("redis", gone("lock"))
		execB := b.acquire("B", "redis", "lock", "b", 1000)
		cmd := []string{"WRITE", "file", "by-A", "TOKEN", "1"}
		send := b.add(sim.Event{Kind: sim.KindSend, Client: "A", Thread: "main", Node: "storage", Cmd: cmd})
		w := b.add(sim.Event{Kind: sim.KindExec, Client: "A", Thread: "main", Node: "storage", Req: send, Cmd: cmd,
			Reply: "OK", Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{str("file", "by-A", "", -1)}})
		o := opts("lock")
		o.FencedStorage = true
		if tokenless {
			o.Tokenless = []string{"B"}
			want(t, Check(b.evs, o), v(mutualExclusion, execB+3, exec+3, execB+3), v(staleWrite, w, exec, exp, execB, w))
		} else {
			want(t, Check(b.evs, o), v(mutualExclusion, execB+3, exec+3, execB+3))
		}
	}
}

// The token counter goes back (its node restarted empty): B is issued
// token 1 again, after A's token 1. The fencing storage accepts A's late
// write (1 >= highest seen 1), though A no longer holds the lock and B was
// issued its token after A's: a stale write, proved by both token marks.
// A reissued token smaller than A's (A had 5, B gets 1) is the same case.
func TestStaleWriteFencedCounterWentBack(t *testing.T) {
	for _, a := range []int64{1, 5} {
		b := &logb{}
		exec := b.acquire("A", "redis", "lock", "a", 1000)
		tokA := b.token("A", "lock", a)
		exp := b.at(time.Second).expire("redis", gone("lock"))
		b.acquire("B", "redis", "lock", "b", 1000)
		tokB := b.token("B", "lock", 1)
		cmd := []string{"WRITE", "file", "by-A", "TOKEN", fmt.Sprint(a)}
		send := b.add(sim.Event{Kind: sim.KindSend, Client: "A", Thread: "main", Node: "storage", Cmd: cmd})
		w := b.add(sim.Event{Kind: sim.KindExec, Client: "A", Thread: "main", Node: "storage", Req: send, Cmd: cmd,
			Reply: "OK", Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{str("file", "by-A", "", -1)}})
		o := opts("lock")
		o.FencedStorage = true
		want(t, Check(b.evs, o), v(mutualExclusion, 12, exec+3, 12), v(staleWrite, w, exec, tokA, exp, tokB, w))
	}
}

// A and B take turns on the key for 12s, each giving it back at once (no
// acquired mark: a WAIT that timed out): nobody ever acquires or enters.
// A's tries — its SETs that got the key or found B's — span 12s: no
// progress, proved by A's first and last tries. One acquired mark anywhere
// makes the run safe.
func TestNoProgress(t *testing.T) {
	for _, acquired := range []bool{false, true} {
		b := &logb{}
		first, last := 0, 0
		for at := time.Duration(0); at <= 12*time.Second; at += time.Second {
			b.at(at)
			x := b.call("A", "redis", []string{"SET", "lock", "a", "NX"}, "OK", str("lock", "a", "A", 10000))
			if first == 0 {
				first = x
			}
			b.call("B", "redis", []string{"SET", "lock", "b", "NX"}, "(nil)", str("lock", "a", "A", 10000))
			b.call("A", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
			b.call("B", "redis", []string{"SET", "lock", "b", "NX"}, "OK", str("lock", "b", "B", 10000))
			last = b.call("A", "redis", []string{"SET", "lock", "a", "NX"}, "(nil)", str("lock", "b", "B", 10000))
			b.call("B", "redis", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
		}
		if acquired {
			b.mark("B", "acquired", "lock")
			want(t, Check(b.evs, opts("lock")), v(safe, 0))
		} else {
			want(t, Check(b.evs, opts("lock")), v(noProgress, 0, first, last))
		}
	}
}

// One item, two buyers who both read 1 and both write 0: two writes from
// reads of a positive stock, more than the one item. Oversell names both.
func TestOversell(t *testing.T) {
	b := &logb{}
	b.init("redis", str("stock", "1", "", -1))
	b.call("A", "redis", []string{"GET", "stock"}, `"1"`, str("stock", "1", "", -1))
	b.call("B", "redis", []string{"GET", "stock"}, `"1"`, str("stock", "1", "", -1))
	wa := b.call("A", "redis", []string{"SET", "stock", "0"}, "OK", str("stock", "0", "", -1))
	wb := b.call("B", "redis", []string{"SET", "stock", "0"}, "OK", str("stock", "0", "", -1))
	want(t, Check(b.evs, opts()), v(oversell, 0, wa, wb))
}

// A plain storage does not fence: a write with a token, after the lease
// ended, is stale even if no newer token was issued.
func TestStaleWriteTokenToPlainStorage(t *testing.T) {
	b := &logb{}
	exec := b.acquire("A", "redis", "lock", "a", 1000)
	b.token("A", "lock", 1)
	exp := b.at(time.Second).expire("redis", gone("lock"))
	send := b.add(sim.Event{Kind: sim.KindSend, Client: "A", Thread: "main", Node: "storage", Cmd: []string{"WRITE", "file", "by-A", "TOKEN", "1"}})
	w := b.add(sim.Event{Kind: sim.KindExec, Client: "A", Thread: "main", Node: "storage", Req: send, Cmd: []string{"WRITE", "file", "by-A", "TOKEN", "1"},
		Reply: "OK", Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{str("file", "by-A", "", -1)}, Fact: fact.New(fact.PlainStorage)})
	want(t, Check(b.evs, opts("lock")), v(staleWrite, w, exec, exp, w))
}

// Issue 9, class 6: A and B both read 10 and write 9 (B's write overwrote
// A's unseen); C's write of 8, whose reply never came, makes the final
// count look right. The history shows the lost update; the end state
// does not.
func TestLostUpdateFromHistory(t *testing.T) {
	b := &logb{}
	b.init("redis", str("stock", "10", "", -1))
	b.call("A", "redis", []string{"GET", "stock"}, `"10"`, str("stock", "10", "", -1))
	rb := b.call("B", "redis", []string{"GET", "stock"}, `"10"`, str("stock", "10", "", -1))
	wa := b.call("A", "redis", []string{"SET", "stock", "9"}, "OK", str("stock", "9", "", -1))
	wb := b.call("B", "redis", []string{"SET", "stock", "9"}, "OK", str("stock", "9", "", -1))
	b.call("C", "redis", []string{"GET", "stock"}, `"9"`, str("stock", "9", "", -1))
	b.cmd("C", "redis", []string{"SET", "stock", "8"}, "OK", str("stock", "8", "", -1))
	want(t, Check(b.evs, opts()), v(lostUpdate, 0, rb, wa, wb))
}

// Issue 9, class 6: a write that no deduct mark follows (its client
// crashed right after it) is still a write; the next buyer reads it, and
// nothing is lost.
func TestUnmarkedWriteIsNoLostUpdate(t *testing.T) {
	b := &logb{}
	b.init("redis", str("stock", "10", "", -1))
	b.call("A", "redis", []string{"GET", "stock"}, `"10"`, str("stock", "10", "", -1))
	b.cmd("A", "redis", []string{"SET", "stock", "9"}, "OK", str("stock", "9", "", -1))
	b.fault("crash", "A", "")
	b.call("B", "redis", []string{"GET", "stock"}, `"9"`, str("stock", "9", "", -1))
	b.call("B", "redis", []string{"SET", "stock", "8"}, "OK", str("stock", "8", "", -1))
	want(t, Check(b.evs, opts()), v(safe, 0))
}

// A node that restarted without its data holds no version of the stock:
// the first write after it overwrote nothing unseen, so it is no lost
// update (D's update was lost by the node, not by A's write).
func TestEmptyRestartIsNoLostUpdate(t *testing.T) {
	b := &logb{}
	b.init("redis", str("stock", "3", "", -1))
	b.call("A", "redis", []string{"GET", "stock"}, `"3"`, str("stock", "3", "", -1))
	b.call("D", "redis", []string{"GET", "stock"}, `"3"`, str("stock", "3", "", -1))
	b.call("D", "redis", []string{"SET", "stock", "2"}, "OK", str("stock", "2", "", -1))
	b.fault("node-crash", "", "redis")
	b.fault("node-restart", "", "redis")
	b.call("A", "redis", []string{"SET", "stock", "2"}, "OK", str("stock", "2", "", -1))
	want(t, Check(b.evs, opts()), v(safe, 0))
}

// A fault the engine could not apply (its note says "not applied") changed
// nothing: a node-restart of a node that was not down does not empty it,
// and the lock whose holder ended with an error stays stuck.
func TestFaultNotAppliedChangesNothing(t *testing.T) {
	b := &logb{}
	exec := b.acquire("C", "redis", "lock", "c", -1)
	done := b.done("C", redis.Nil)
	b.add(sim.Event{Kind: sim.KindFault, Name: "node-restart", Node: "redis", Fact: notApplied(&fact.Fact{Key: fact.NotDown, Node: "redis"})})
	b.add(sim.Event{Kind: sim.KindFault, Name: "crash", Client: "A", Fact: notApplied(&fact.Fact{Key: fact.AlreadyCrashed, Client: "A"})})
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, exec, done))
}

// A MULTI/EXEC whose EXEC was refused (WATCH saw a change) wrote nothing;
// one that ran wrote the stock.
func TestMultiExecWrites(t *testing.T) {
	b := &logb{}
	b.init("redis", str("stock", "1", "", -1))
	b.call("A", "redis", []string{"GET", "stock"}, `"1"`, str("stock", "1", "", -1))
	b.call("B", "redis", []string{"GET", "stock"}, `"1"`, str("stock", "1", "", -1))
	b.call("A", "redis", []string{"MULTI", "|", "SET", "stock", "0", "|", "EXEC"}, "OK; QUEUED; [OK]", str("stock", "0", "", -1))
	b.call("B", "redis", []string{"MULTI", "|", "SET", "stock", "0", "|", "EXEC"}, "OK; QUEUED; (nil)", str("stock", "0", "", -1))
	want(t, Check(b.evs, opts()), v(safe, 0))
}

// After a failover the replica serves with the key its master shipped; the
// holders are those of the master's write it applies, from the replicate
// event on. A blind DEL on the promoted replica removes A's lock while A
// believes it holds it.
func TestReplicaHoldersAfterFailover(t *testing.T) {
	b := &logb{}
	b.acquire("A", "master", "lock", "a", -1)
	rep := b.add(sim.Event{Kind: sim.KindReplicate, Node: "replica", Keys: []sim.KeyState{str("lock", "a", "A", -1)}})
	b.fault("failover", "", "master")
	del := b.call("B", "replica", []string{"DEL", "lock"}, "(integer) 1", gone("lock"))
	o := opts("lock")
	o.ReplicaOf = map[string]string{"replica": "master"}
	want(t, Check(b.evs, o), v(foreignUnlock, del, rep, del))
}

// A request sent before its client crashed and executed after belongs to
// the dead incarnation: the restarted client does not hold what it took.
func TestExecAfterCrashBelongsToOldIncarnation(t *testing.T) {
	b := &logb{}
	send := b.add(sim.Event{Kind: sim.KindSend, Client: "A", Thread: "main", Node: "redis", Cmd: []string{"SETNX", "lock", "a"}})
	crash := b.fault("crash", "A", "")
	exec := b.add(sim.Event{Kind: sim.KindExec, Client: "A", Thread: "main", Node: "redis", Req: send,
		Cmd: []string{"SETNX", "lock", "a"}, Reply: "(integer) 1", Keys: []sim.KeyState{str("lock", "a", "A", -1)}})
	b.fault("restart", "A", "")
	want(t, Check(b.evs, opts("lock")), v(deadlock, 0, crash, exec))
}

// notApplied is the fact of a fault the engine refused for why.
func notApplied(why *fact.Fact) *fact.Fact {
	return &fact.Fact{Key: fact.NotApplied, Reason: &fact.Fact{Key: fact.BadFault, Reason: why}}
}
