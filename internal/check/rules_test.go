package check

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// feed runs events through a fresh checker (numbering them) and returns
// the verdict names at the end.
func feed(t *testing.T, events []sim.Event) []string {
	t.Helper()
	c := New(Options{Locks: []string{"lock"}})
	for i := range events {
		events[i].Seq = i + 1
		c.Observe(&events[i])
	}
	c.Finish()
	return c.Verdicts()
}

func lockState(owner string, ttl int64) []sim.KeyState {
	if owner == "" {
		return []sim.KeyState{{Key: "lock", TTL: -2}}
	}
	return []sim.KeyState{{Key: "lock", Type: "string", Value: "tok-" + owner, Owner: owner, TTL: ttl}}
}

func exec(t time.Duration, client, cmd, owner string, ttl int64) sim.Event {
	return sim.Event{T: t, Kind: sim.KindExec, Client: client, Thread: "main", Node: "redis", Cmd: []string{cmd, "lock"}, Keys: lockState(owner, ttl)}
}

// A holder that crashes with a lock that has no TTL, while B keeps asking:
// deadlock (and not starvation, which is for live holders).
func TestDeadlockWhenTheCrashedOwnersLockStays(t *testing.T) {
	got := feed(t, []sim.Event{
		exec(0, "A", "SETNX", "A", -1),
		{T: time.Millisecond, Kind: sim.KindFault, Name: "crash", Client: "A"},
		exec(100*time.Millisecond, "B", "SETNX", "A", -1),
		exec(20*time.Second, "B", "SETNX", "A", -1),
	})
	if !slices.Equal(got, []string{Deadlock}) {
		t.Fatalf("want [deadlock], got %v", got)
	}
}

// The same crash, but the lock expires and B gets it: no deadlock.
func TestNoDeadlockWhenTheLockExpires(t *testing.T) {
	got := feed(t, []sim.Event{
		exec(0, "A", "SET", "A", 3000),
		{T: time.Millisecond, Kind: sim.KindFault, Name: "crash", Client: "A"},
		exec(100*time.Millisecond, "B", "SET", "A", 2900),
		{T: 3 * time.Second, Kind: sim.KindExpire, Node: "redis", Keys: lockState("", 0)},
		exec(3100*time.Millisecond, "B", "SET", "B", 3000),
		{T: 3100 * time.Millisecond, Kind: sim.KindMark, Name: "acquired", Client: "B", Thread: "main"},
		exec(3200*time.Millisecond, "B", "DEL", "", 0),
	})
	if !slices.Equal(got, []string{Safe}) {
		t.Fatalf("want [safe], got %v", got)
	}
}

// A live holder keeps its lock for the whole run while B asks: starvation.
// Had B waited less than StarveAfter, or acquired, it would be fine.
func TestStarvationOfALiveWaiter(t *testing.T) {
	run := func(last time.Duration, acquire bool) []string {
		evs := []sim.Event{exec(0, "A", "EVAL", "A", 3000)}
		for at := 100 * time.Millisecond; at <= last; at += time.Second {
			evs = append(evs, exec(at, "B", "EVAL", "A", 3000))
		}
		if acquire {
			evs = append(evs, sim.Event{T: last, Kind: sim.KindMark, Name: "acquired", Client: "B", Thread: "main"})
		}
		return feed(t, evs)
	}
	if got := run(15*time.Second, false); !slices.Equal(got, []string{Starvation}) {
		t.Fatalf("15s of refusals: want [starvation], got %v", got)
	}
	if got := run(5*time.Second, false); !slices.Equal(got, []string{Safe}) {
		t.Fatalf("5s of refusals: want [safe], got %v", got)
	}
	if got := run(15*time.Second, true); !slices.Equal(got, []string{Safe}) {
		t.Fatalf("refused for 15s, then acquired: want [safe], got %v", got)
	}
}

// Two threads of one process inside at once break mutual exclusion; a
// request that ends normally without leaving is still inside.
func TestMutualExclusionPerThread(t *testing.T) {
	got := feed(t, []sim.Event{
		{Kind: sim.KindMark, Name: "enter", Client: "A", Thread: "req1"},
		{Kind: sim.KindDone, Client: "A", Thread: "req1"},
		{Kind: sim.KindMark, Name: "enter", Client: "A", Thread: "req2"},
	})
	if !slices.Equal(got, []string{MutualExclusion}) {
		t.Fatalf("want [mutual-exclusion], got %v", got)
	}
	got = feed(t, []sim.Event{
		{Kind: sim.KindMark, Name: "enter", Client: "A", Thread: "req1"},
		{Kind: sim.KindMark, Name: "leave", Client: "A", Thread: "req1"},
		{Kind: sim.KindMark, Name: "enter", Client: "A", Thread: "req2"},
	})
	if !slices.Equal(got, []string{Safe}) {
		t.Fatalf("want [safe], got %v", got)
	}
}

// B holds a 3s lease and still believes in it. A DEL by A that shows the
// key gone is a foreign unlock while the lease runs; once its expiry time
// has come, the key went by expiry — even when no expire event was logged
// before the DEL, as on a busy real server — and A removed nothing.
func TestARemovalAfterTheExpiryTimeIsAnExpiry(t *testing.T) {
	run := func(delAt time.Duration) []string {
		held := []sim.KeyState{{Key: "lock", Type: "string", Value: "tok-B", TTL: 3000, Expire: 3000}}
		return feed(t, []sim.Event{
			{T: 0, Kind: sim.KindExec, Client: "B", Thread: "main", Node: "redis", Cmd: []string{"SET", "lock", "tok-B", "NX", "PX", "3000"}, Keys: held},
			{T: time.Millisecond, Kind: sim.KindMark, Name: sim.MarkAcquired, Lock: "lock", Client: "B", Thread: "main"},
			exec(delAt, "A", "DEL", "", 0),
		})
	}
	if got := run(2 * time.Second); !slices.Equal(got, []string{ForeignUnlock}) {
		t.Fatalf("DEL while the lease runs: want [foreign-unlock], got %v", got)
	}
	if got := run(3100 * time.Millisecond); !slices.Equal(got, []string{Safe}) {
		t.Fatalf("DEL after the lease's expiry time: want [safe], got %v", got)
	}
}

// A run that a step cap stopped before its horizon is safe only as far as
// it went, and its verdict says so.
func TestASafeRunStoppedShortSaysSo(t *testing.T) {
	c := New(Options{Locks: []string{"lock"}})
	c.StoppedShort()
	vs := c.Finish()
	if len(vs) != 1 || vs[0].Name != Safe || !strings.Contains(vs[0].Say.En, "stopped before its horizon") {
		t.Fatalf("want one safe verdict that says the run was stopped, got %+v", vs)
	}
}

// A's lease (token 1) runs out; B takes the lock with an algorithm that
// draws no token; A's write with token 1 then reaches the fenced storage,
// which has seen no larger token and accepts it. B came to hold the lock
// after A's token: the storage could not know of B, but A's write is stale
// all the same. Were B a client that draws tokens (not Tokenless), no
// later token was issued and the write is not stale; nor is it when B took
// the lock only after A's write.
func TestStaleWriteOnAFencedStorageAfterATokenlessHolder(t *testing.T) {
	run := func(tokenless, bFirst bool) []string {
		opt := Options{Locks: []string{"lock"}, FencedStorage: true}
		if tokenless {
			opt.Tokenless = []string{"B"}
		}
		c := New(opt)
		write := sim.Event{T: 5 * time.Second, Kind: sim.KindExec, Client: "A", Thread: "main", Node: "storage", Cmd: []string{"WRITE", "file", "a", "TOKEN", "1"},
			Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{{Key: "file", Type: "string", Value: "a", TTL: -1}}}
		takeB := exec(3100*time.Millisecond, "B", "SET", "B", 3000)
		evs := []sim.Event{
			exec(0, "A", "SET", "A", 3000),
			{T: time.Millisecond, Kind: sim.KindMark, Name: sim.MarkAcquired, Lock: "lock", Client: "A", Thread: "main"},
			{T: time.Millisecond, Kind: sim.KindMark, Name: sim.MarkToken, Lock: "lock", Client: "A", Thread: "main", Fact: &fact.Fact{Key: fact.Token, Token: 1}},
			{T: 3 * time.Second, Kind: sim.KindExpire, Node: "redis", Keys: lockState("", 0)},
		}
		if bFirst {
			evs = append(evs, takeB, write)
		} else {
			evs = append(evs, write, takeB)
		}
		for i := range evs {
			evs[i].Seq = i + 1
			c.Observe(&evs[i])
		}
		c.Finish()
		return c.Verdicts()
	}
	if got := run(true, true); !slices.Equal(got, []string{StaleWrite}) {
		t.Errorf("a token-less holder before A's write: want [stale-write], got %v", got)
	}
	if got := run(false, true); !slices.Equal(got, []string{Safe}) {
		t.Errorf("a holder that draws tokens, none issued yet: want [safe], got %v", got)
	}
	if got := run(true, false); !slices.Equal(got, []string{Safe}) {
		t.Errorf("the token-less holder comes after A's write: want [safe], got %v", got)
	}
}

// A and B take turns on the lock for 12s, each giving its key back at
// once (a WAIT that always times out): nobody ever enters. A's tries (the
// SETs that gave it the key, those B's key refused) span 12s: no progress.
// Had one of them acquired the lock and entered once, or the tries spanned under StarveAfter,
// the run would be safe; with a key stuck for ever beside it (deadlock),
// the deadlock alone says why nobody got in.
func TestNoProgressWhenEveryLockIsGivenBack(t *testing.T) {
	run := func(span time.Duration, enter, stuck bool) []string {
		var evs []sim.Event
		for at := time.Duration(0); at <= span; at += time.Second {
			evs = append(evs,
				exec(at, "A", "SET", "A", 10000),
				exec(at+100*time.Millisecond, "B", "SET", "A", 10000),
				exec(at+200*time.Millisecond, "A", "DEL", "", 0),
				exec(at+300*time.Millisecond, "B", "SET", "B", 10000),
				exec(at+400*time.Millisecond, "A", "SET", "B", 10000),
				exec(at+500*time.Millisecond, "B", "DEL", "", 0))
		}
		if enter {
			evs = append(evs, sim.Event{T: span, Kind: sim.KindMark, Name: sim.MarkAcquired, Lock: "lock", Client: "B", Thread: "main"},
				sim.Event{T: span, Kind: sim.KindMark, Name: sim.MarkEnter, Lock: "lock", Client: "B", Thread: "main"})
		}
		if stuck {
			evs = append(evs, sim.Event{T: span, Kind: sim.KindExec, Client: "C", Thread: "main", Node: "redis", Cmd: []string{"SETNX", "lock"},
				Keys: []sim.KeyState{{Key: "lock", Type: "string", Value: "C", Owner: "C", TTL: -1}}},
				sim.Event{T: span, Kind: sim.KindFault, Name: "crash", Client: "C"})
		}
		return feed(t, evs)
	}
	if got := run(12*time.Second, false, false); !slices.Equal(got, []string{NoProgress}) {
		t.Errorf("12s of tries, nobody in: want [no-progress], got %v", got)
	}
	if got := run(12*time.Second, true, false); !slices.Equal(got, []string{Safe}) {
		t.Errorf("12s of tries, then B enters: want [safe], got %v", got)
	}
	if got := run(5*time.Second, false, false); !slices.Equal(got, []string{Safe}) {
		t.Errorf("5s of tries: want [safe], got %v", got)
	}
	if got := run(12*time.Second, false, true); !slices.Equal(got, []string{Deadlock}) {
		t.Errorf("12s of tries, and a key stuck for ever: want [deadlock] alone, got %v", got)
	}
}
