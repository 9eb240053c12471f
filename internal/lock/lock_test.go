package lock

import (
	"context"
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// fakeClock is a hand-driven clock: Sleep moves it, and the Redis server's
// TTLs, forward at once. After limit sleeps (if set) Sleep fails, which
// ends loops that would otherwise run for ever.
type fakeClock struct {
	t      time.Time
	m      *miniredis.Miniredis
	sleeps int
	limit  int
}

func (c *fakeClock) Now() time.Time { return c.t }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.limit > 0 && c.sleeps >= c.limit {
		return context.Canceled
	}
	c.sleeps++
	c.t = c.t.Add(d)
	c.m.FastForward(d)
	return ctx.Err()
}

// fixture is one Redis server with a client and a fake clock.
type fixture struct {
	m      *miniredis.Miniredis
	rdb    *redis.Client
	clock  *fakeClock
	marks  []string // the names of the marks the locks made
	fenced []int64  // the fencing tokens the locks handed out
}

// The fixture observes the locks it builds.
func (f *fixture) Mark(name string, _ *fact.Fact) { f.marks = append(f.marks, name) }
func (f *fixture) Own(string)                     {}
func (f *fixture) Fence(token int64)              { f.fenced = append(f.fenced, token) }

// threadsFunc starts a lock's thread by calling itself; Each runs its
// functions one after another.
type threadsFunc func(name string, fn func(ctx context.Context) error)

func (s threadsFunc) Go(name string, fn func(ctx context.Context) error) { s(name, fn) }

func (s threadsFunc) Each(ctx context.Context, n int, fn func(ctx context.Context, i int)) error {
	for i := range n {
		fn(ctx, i)
	}
	return ctx.Err()
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	return &fixture{m: m, rdb: rdb, clock: &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), m: m}}
}

// decode gives algorithm id's typed options with raw overrides.
func decode(t *testing.T, id string, raw map[string]any) Options {
	t.Helper()
	a, ok := Lookup(id)
	if !ok {
		t.Fatalf("algorithm %s is not registered", id)
	}
	o, err := a.Decode(raw)
	if err != nil {
		t.Fatalf("decode %s: %v", id, err)
	}
	return o
}

// build makes the algorithm id for owner, with raw parameter overrides.
func (f *fixture) build(t *testing.T, id, owner string, raw map[string]any) Locker {
	t.Helper()
	a, _ := Lookup(id)
	return a.New(Config{Redis: f.rdb, Clock: f.clock, Owner: owner, Options: decode(t, id, raw), Observer: f})
}

func (f *fixture) count(name string) int {
	n := 0
	for _, m := range f.marks {
		if m == name {
			n++
		}
	}
	return n
}

func mustLock(t *testing.T, l Locker) {
	t.Helper()
	if err := l.Lock(context.Background()); err != nil {
		t.Fatalf("Lock: want the lock, got %v", err)
	}
}

func mustUnlock(t *testing.T, l Locker) {
	t.Helper()
	if err := l.Unlock(context.Background()); err != nil {
		t.Fatalf("Unlock: want nil, got %v", err)
	}
}

// While one owner holds the lock, another gives up at its acquire timeout.
func mustBeBusy(t *testing.T, f *fixture, id string, raw map[string]any) {
	t.Helper()
	raw["acquire_timeout"] = "300ms"
	other := f.build(t, id, "other", raw)
	if err := other.Lock(context.Background()); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("a second owner's Lock: want ErrNotAcquired, got %v", err)
	}
}

func TestEveryRowHasOneAlgorithm(t *testing.T) {
	seen := map[int]string{}
	for _, a := range Algorithms {
		if prev, dup := seen[a.Row]; dup {
			t.Errorf("row %d has two algorithms: %s and %s", a.Row, prev, a.ID)
		}
		seen[a.Row] = a.ID
		if a.Seed == "" || a.Flaw == "" || a.New == nil {
			t.Errorf("%s: want seed, flaw and constructor, got %q %q %v", a.ID, a.Seed, a.Flaw, a.New != nil)
		}
	}
	for row := 1; row <= 17; row++ {
		if _, ok := seen[row]; !ok {
			t.Errorf("catalog row %d has no algorithm", row)
		}
	}
}

type syncMutex struct{ sync.Mutex }

func (m *syncMutex) Lock(context.Context) error { m.Mutex.Lock(); return nil }

func TestLocalMutexUsesTheProcessMutex(t *testing.T) {
	mu := &syncMutex{}
	l := NewLocalMutex(Config{Local: mu})
	mustLock(t, l)
	if mu.TryLock() {
		t.Fatal("after Lock the process mutex should be held, but it was free")
	}
	mustUnlock(t, l)
	if !mu.TryLock() {
		t.Fatal("after Unlock the process mutex should be free, but it was held")
	}
	if err := NewLocalMutex(Config{}).Lock(context.Background()); err == nil {
		t.Fatal("without a process mutex Lock should fail, got nil")
	}
}

// A conflicting write between WATCH and EXEC costs one retry, then the
// transaction goes through.
func TestWatchMultiExecRetriesOnConflict(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	mustSet(t, f.m, "stock", "5")
	a, _ := Lookup("watch-multi-exec")
	opt := a.NewOptimistic(Config{Redis: f.rdb, Clock: f.clock, Owner: "A", Observer: f})
	calls := 0
	err := opt.Transact(ctx, []string{"stock"}, func(tx *redis.Tx) (func(redis.Pipeliner) error, error) {
		calls++
		n, err := tx.Get(ctx, "stock").Int()
		if err != nil {
			return nil, err
		}
		if calls == 1 {
			mustSet(t, f.m, "stock", "4") // another buyer's deduction lands now
		}
		return func(p redis.Pipeliner) error { p.Set(ctx, "stock", n-1, 0); return nil }, nil
	})
	if err != nil {
		t.Fatalf("Transact: want nil, got %v", err)
	}
	if got, _ := f.m.Get("stock"); got != "3" || calls != 2 || f.count("retry") != 1 {
		t.Fatalf("want stock 3 after 2 attempts and 1 retry, got stock %s, %d attempts, %d retries", got, calls, f.count("retry"))
	}
}

func TestSetNXNoExpiry(t *testing.T) {
	f := newFixture(t)
	a := f.build(t, "setnx-no-expiry", "A", nil)
	mustLock(t, a)
	if ttl := f.m.TTL("lock"); ttl != 0 {
		t.Fatalf("the lock should have no TTL, got %s", ttl)
	}
	mustBeBusy(t, f, "setnx-no-expiry", map[string]any{})
	mustUnlock(t, a)
	if f.m.Exists("lock") {
		t.Fatal("after Unlock the lock should be gone")
	}
}

func TestSetNXThenExpireAndRepair(t *testing.T) {
	f := newFixture(t)
	a := f.build(t, "setnx-then-expire", "A", map[string]any{"ttl": "5s"})
	mustLock(t, a)
	if ttl := f.m.TTL("lock"); ttl != 5*time.Second {
		t.Fatalf("after SETNX and EXPIRE want TTL 5s, got %s", ttl)
	}
	mustUnlock(t, a)

	mustSet(t, f.m, "lock", "crashed") // a holder died between SETNX and EXPIRE
	b := f.build(t, "setnx-then-expire", "B", map[string]any{"ttl": "2s", "retry": "500ms", "repair": true})
	mustLock(t, b)
	if v, _ := f.m.Get("lock"); v != "B" || f.count("repair") != 1 {
		t.Fatalf("with repair B should set the missing EXPIRE once and get the lock, got value %q and %d repairs", v, f.count("repair"))
	}
}

func TestSetNXGetSetTakesOverAnExpiredLock(t *testing.T) {
	for _, recover := range []string{"getset", "del"} {
		t.Run(recover, func(t *testing.T) {
			f := newFixture(t)
			raw := map[string]any{"ttl": "2s", "retry": "500ms", "recover": recover}
			a := f.build(t, "setnx-getset-timestamp", "A", raw)
			mustLock(t, a)
			want := f.clock.t.Add(2*time.Second).UnixMilli() + 1
			if v, _ := f.m.Get("lock"); v != strconv.FormatInt(want, 10) {
				t.Fatalf("the lock's value should be now+ttl+1 = %d, got %s", want, v)
			}
			// A never releases; B waits out the timestamp and takes over.
			b := f.build(t, "setnx-getset-timestamp", "B", raw)
			mustLock(t, b)
			if f.count("expired") != 1 || f.clock.t.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) < 2*time.Second {
				t.Fatalf("B should take over once, after 2s; got %d take-overs at %s", f.count("expired"), f.clock.t)
			}
			mustUnlock(t, b)
		})
	}
}

func testOwnerRelease(t *testing.T, id string) {
	f := newFixture(t)
	a := f.build(t, id, "A", nil)
	mustLock(t, a)
	mustBeBusy(t, f, id, map[string]any{})
	mustUnlock(t, a)
	if f.m.Exists("lock") {
		t.Fatal("after Unlock the lock should be gone")
	}
	mustLock(t, a)
	mustSet(t, f.m, "lock", "B") // A's lock expired and B took it
	if err := a.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("releasing B's lock: want ErrNotHeld, got %v", err)
	}
	if v, _ := f.m.Get("lock"); v != "B" {
		t.Fatalf("B's lock should be untouched, got %q", v)
	}
}

func TestOwnerCheckGetDel(t *testing.T) { testOwnerRelease(t, "owner-check-get-del") }

func TestWatchRelease(t *testing.T) { testOwnerRelease(t, "watch-release") }

// Nested locks count up, unlocks count down, the last one deletes the key.
func TestReentrantCountsHolds(t *testing.T) {
	for _, script := range []string{"000", "002"} {
		t.Run(script, func(t *testing.T) {
			f := newFixture(t)
			raw := map[string]any{"script": script}
			a := f.build(t, "reentrant-hash", "uuid-A:exec-1", raw)
			mustLock(t, a)
			mustLock(t, a)
			if n := f.m.HGet("lock", "uuid-A:exec-1"); n != "2" {
				t.Fatalf("after two nested locks want count 2, got %q", n)
			}
			if ttl := f.m.TTL("lock"); ttl != 30*time.Second {
				t.Fatalf("want TTL 30s, got %s", ttl)
			}
			mustBeBusy(t, f, "reentrant-hash", map[string]any{"script": script})
			mustUnlock(t, a)
			if n := f.m.HGet("lock", "uuid-A:exec-1"); n != "1" {
				t.Fatalf("after one unlock want count 1, got %q", n)
			}
			mustUnlock(t, a)
			if f.m.Exists("lock") {
				t.Fatal("after the last unlock the lock should be gone")
			}
			if err := a.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
				t.Fatalf("unlocking a lock we do not hold: want ErrNotHeld, got %v", err)
			}
		})
	}
}

// The watchdog renews every TTL/3 while the lock is ours, and stops once
// it is released.
func TestWatchdogRenews(t *testing.T) {
	f := newFixture(t)
	a, _ := Lookup("watchdog")
	o, err := a.Decode(map[string]any{"ttl": "3s"})
	if err != nil {
		t.Fatal(err)
	}
	var watchdog func(ctx context.Context) error
	l := a.New(Config{Redis: f.rdb, Clock: f.clock, Owner: "uuid-A:exec-1", Options: o,
		Observer: f, Threads: threadsFunc(func(_ string, fn func(ctx context.Context) error) { watchdog = fn })})
	mustLock(t, l)
	if watchdog == nil {
		t.Fatal("Lock should start a watchdog thread")
	}
	f.clock.limit = 4 // 4s of watchdog time, longer than the 3s TTL
	if err := watchdog(context.Background()); !errors.Is(err, context.Canceled) {
		t.Fatalf("the watchdog should run until stopped, got %v", err)
	}
	if !f.m.Exists("lock") || f.count("renewed") != 4 {
		t.Fatalf("after 4s under a 3s TTL the renewed lock should exist with 4 renewals, got exists=%v, %d renewals", f.m.Exists("lock"), f.count("renewed"))
	}
	mustUnlock(t, l)
	f.clock.limit = 0
	if err := watchdog(context.Background()); err != nil || f.count("renewed") != 4 {
		t.Fatalf("after Unlock the watchdog should stop without renewing, got %v and %d renewals", err, f.count("renewed"))
	}
}

// mustSet sets a key on the fixture's server, failing the test if it cannot.
func mustSet(t *testing.T, m interface{ Set(k, v string) error }, k, v string) {
	t.Helper()
	if err := m.Set(k, v); err != nil {
		t.Fatal(err)
	}
}
