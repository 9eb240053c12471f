package lock

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	_ "modernc.org/sqlite" // the embedded SQL engine the MySQL lock runs on here
)

// ---- Row 15: Redlock -------------------------------------------------------

// clusterClock is the fixture's fakeClock that also moves the TTLs of the
// other masters forward, so that every master sees the same time pass.
type clusterClock struct {
	*fakeClock
	rest []*miniredis.Miniredis
}

func (c *clusterClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := c.fakeClock.Sleep(ctx, d); err != nil {
		return err
	}
	for _, m := range c.rest {
		m.FastForward(d)
	}
	return nil
}

// cluster is n independent masters: f.m is the first, servers all of them.
// Tests close only masters after the first.
type cluster struct {
	f       *fixture
	servers []*miniredis.Miniredis
	nodes   []Redis
	clock   *clusterClock
}

func newCluster(t *testing.T, n int) *cluster {
	t.Helper()
	f := newFixture(t)
	c := &cluster{f: f, servers: []*miniredis.Miniredis{f.m}, nodes: []Redis{f.rdb}, clock: &clusterClock{fakeClock: f.clock}}
	for i := 1; i < n; i++ {
		m := miniredis.RunT(t)
		// One quick dial: a master the test closes should refuse at once.
		rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1, DialerRetries: 1, DialerRetryTimeout: time.Millisecond})
		t.Cleanup(func() { rdb.Close() })
		c.servers = append(c.servers, m)
		c.nodes = append(c.nodes, rdb)
		c.clock.rest = append(c.clock.rest, m)
	}
	return c
}

// redlock builds a Redlock for owner over nodes (the cluster's masters if
// nil), logging its marks into the fixture.
func (c *cluster) redlock(t *testing.T, owner string, nodes []Redis, raw map[string]any) *Redlock {
	t.Helper()
	if nodes == nil {
		nodes = c.nodes
	}
	return NewRedlock(Config{Nodes: nodes, Clock: c.clock, Owner: owner,
		Observer: c.f}, decode(t, "redlock", raw).(*RedlockOptions)).(*Redlock)
}

// holders counts the live masters whose lock key holds owner's value.
func (c *cluster) holders(owner string) int {
	n := 0
	for _, m := range c.servers {
		if v, err := m.Get("lock"); err == nil && v == owner {
			n++
		}
	}
	return n
}

// A vote won on all five masters writes the owner's value with the TTL on
// every one of them, dates the validity from the vote's start minus the
// drift allowance, and Unlock removes the key everywhere.
func TestRedlockAcquiresAndReleasesOnEveryMaster(t *testing.T) {
	c := newCluster(t, 5)
	a := c.redlock(t, "A", nil, nil)
	start := c.clock.t
	mustLock(t, a)
	for i, m := range c.servers {
		if v, _ := m.Get("lock"); v != "A" {
			t.Fatalf("master %d: want the lock to hold A, got %q", i, v)
		}
		if ttl := m.TTL("lock"); ttl != 10*time.Second {
			t.Fatalf("master %d: want the lock's TTL 10s, got %s", i, ttl)
		}
	}
	// validity = ttl 10s - elapsed 0 - drift (10s*0.01 + 2ms)
	if want := start.Add(10*time.Second - 102*time.Millisecond); !a.Until().Equal(want) {
		t.Fatalf("want the validity to end at %s, got %s", want, a.Until())
	}
	if c.f.count("quorum") != 1 || c.f.count("no-quorum") != 0 {
		t.Fatalf("want one quorum mark and no no-quorum mark, got %v", c.f.marks)
	}
	mustUnlock(t, a)
	for i, m := range c.servers {
		if m.Exists("lock") {
			t.Fatalf("master %d: after Unlock the lock should be gone", i)
		}
	}
	if err := a.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("unlocking again: want ErrNotHeld, got %v", err)
	}
}

// Redlock survives a minority of dead masters: with two of five down,
// three votes are still a majority.
func TestRedlockSurvivesTwoDeadMasters(t *testing.T) {
	c := newCluster(t, 5)
	c.servers[3].Close()
	c.servers[4].Close()
	a := c.redlock(t, "A", nil, map[string]any{"tries": 1})
	mustLock(t, a)
	if n := c.holders("A"); n != 3 {
		t.Fatalf("want A's value on the 3 live masters, got %d", n)
	}
	if c.f.count("quorum") != 1 {
		t.Fatalf("want a quorum mark, got %v", c.f.marks)
	}
}

// With a majority of masters dead no vote can win: Lock gives up after
// tries attempts, marks each lost vote, and releases what it won on the
// live masters, so no key is left behind.
func TestRedlockFailsWithoutAMajority(t *testing.T) {
	c := newCluster(t, 5)
	for _, i := range []int{2, 3, 4} {
		c.servers[i].Close()
	}
	a := c.redlock(t, "A", nil, map[string]any{"tries": 3, "retry": "50ms"})
	if err := a.Lock(context.Background()); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("Lock with 2 of 5 masters: want ErrNotAcquired, got %v", err)
	}
	if c.f.count("no-quorum") != 3 || c.f.count("quorum") != 0 || c.clock.sleeps != 2 {
		t.Fatalf("want 3 lost votes with 2 waits between them, got marks %v and %d waits", c.f.marks, c.clock.sleeps)
	}
	for _, i := range []int{0, 1} {
		if c.servers[i].Exists("lock") {
			t.Fatalf("live master %d: the lost vote's key should have been released", i)
		}
	}
}

// While A holds a majority, B cannot win one: B's votes are lost, B's
// release on every master leaves A's keys alone.
func TestRedlockSecondOwnerIsRefused(t *testing.T) {
	c := newCluster(t, 5)
	a := c.redlock(t, "A", nil, nil)
	mustLock(t, a)
	b := c.redlock(t, "B", nil, map[string]any{"tries": 2})
	if err := b.Lock(context.Background()); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("B's Lock while A holds: want ErrNotAcquired, got %v", err)
	}
	if n := c.holders("A"); n != 5 || c.f.count("no-quorum") != 2 {
		t.Fatalf("A should still hold all 5 masters after B's 2 lost votes, got %d masters and marks %v", n, c.f.marks)
	}
	if err := b.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("B's Unlock: want ErrNotHeld, got %v", err)
	}
	if n := c.holders("A"); n != 5 {
		t.Fatalf("B's Unlock should leave A's keys alone, got A on %d masters", n)
	}
}

// slowNode is a master whose SET replies take d on the client's clock (a
// slow network, or a pause while replies are in flight).
type slowNode struct {
	Redis
	clock *fakeClock
	d     time.Duration
}

func (n slowNode) SetNX(ctx context.Context, key string, value any, exp time.Duration) *redis.BoolCmd {
	n.clock.t = n.clock.t.Add(n.d)
	return n.Redis.SetNX(ctx, key, value, exp)
}

// The validity check: a vote won on every master still loses when it took
// longer than the TTL, and the keys are released; a slower vote that
// leaves time holds the lock only until ttl - elapsed - drift.
func TestRedlockValidityShrinksWithElapsedTime(t *testing.T) {
	for _, tc := range []struct {
		name     string
		perNode  time.Duration
		want     error
		validity time.Duration
	}{
		{"in-time", 1500 * time.Millisecond, nil, 10*time.Second - 7500*time.Millisecond - 102*time.Millisecond},
		{"too-late", 2100 * time.Millisecond, ErrNotAcquired, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster(t, 5)
			slow := make([]Redis, len(c.nodes))
			for i, r := range c.nodes {
				slow[i] = slowNode{Redis: r, clock: c.clock.fakeClock, d: tc.perNode}
			}
			a := c.redlock(t, "A", slow, map[string]any{"tries": 1})
			start := c.clock.t
			if err := a.Lock(context.Background()); !errors.Is(err, tc.want) {
				t.Fatalf("Lock: want %v, got %v", tc.want, err)
			}
			if tc.want != nil {
				if c.f.count("too-late") != 1 || c.holders("A") != 0 {
					t.Fatalf("a late vote should be marked too-late and released everywhere, got marks %v and A on %d masters", c.f.marks, c.holders("A"))
				}
				return
			}
			if !a.Until().Equal(start.Add(tc.validity)) || c.holders("A") != 5 {
				t.Fatalf("want the lock on 5 masters valid for %s, got until %s and A on %d masters", tc.validity, a.Until().Sub(start), c.holders("A"))
			}
		})
	}
}

// ---- Row 16: fencing token -------------------------------------------------

// Each lease draws a token from the counter, in the same script that takes
// the lock: a later lease's token is larger, and the observer receives
// it. While A holds, B neither gets the lock nor draws a token.
func TestFencingTokensIncrease(t *testing.T) {
	f := newFixture(t)
	newLock := func(owner string) *FencingToken {
		return NewFencingToken(Config{Redis: f.rdb, Clock: f.clock, Owner: owner, Observer: f}, nil).(*FencingToken)
	}
	a, b := newLock("A"), newLock("B")
	mustLock(t, a)
	if v, _ := f.m.Get("lock"); v != "A" || a.Token() != 1 {
		t.Fatalf("A's lease: want the lock holding A and token 1, got %q and token %d", v, a.Token())
	}
	if ttl := f.m.TTL("lock"); ttl != 3*time.Second {
		t.Fatalf("want the lock's TTL 3s, got %s", ttl)
	}

	f.clock.limit = f.clock.sleeps + 3
	if err := b.Lock(context.Background()); !errors.Is(err, context.Canceled) {
		t.Fatalf("B's Lock while A holds should retry until the clock stops it, got %v", err)
	}
	if v, _ := f.m.Get("lock"); v != "A" || b.Token() != 0 {
		t.Fatalf("A should still hold and B have no token, got %q and B's token %d", v, b.Token())
	}
	if c, _ := f.m.Get("lock:token"); c != "1" {
		t.Fatalf("B's refused attempts must not draw tokens: want the counter at 1, got %s", c)
	}
	f.clock.limit = 0

	mustUnlock(t, a)
	mustLock(t, b)
	if v, _ := f.m.Get("lock"); v != "B" || b.Token() != 2 {
		t.Fatalf("B's lease: want the lock holding B and token 2, got %q and token %d", v, b.Token())
	}
	if len(f.fenced) != 2 || f.fenced[0] != 1 || f.fenced[1] != 2 || f.count("token") != 2 {
		t.Fatalf("the Fence hook should receive tokens 1 then 2, got %v (%d token marks)", f.fenced, f.count("token"))
	}
	if err := a.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("A's Unlock of B's lease: want ErrNotHeld, got %v", err)
	}
	if v, _ := f.m.Get("lock"); v != "B" {
		t.Fatalf("A's Unlock should leave B's lock alone, got %q", v)
	}
}

// ---- Row 14: replica failover ----------------------------------------------

// Without WAIT the failover lock is the plain SET NX PX lock: it takes
// the key with its TTL, refuses a second owner, refuses a release by a
// non-owner, and the owner's Unlock deletes the key.
func TestReplicaFailoverWithoutWaitIsAPlainLock(t *testing.T) {
	f := newFixture(t)
	a := f.build(t, "replica-failover", "A", nil)
	mustLock(t, a)
	if v, _ := f.m.Get("lock"); v != "A" || f.m.TTL("lock") != 3*time.Second {
		t.Fatalf("want the lock holding A with TTL 3s, got %q with %s", v, f.m.TTL("lock"))
	}
	if f.count("replicated")+f.count("not-replicated") != 0 {
		t.Fatalf("without wait_replicas no WAIT should be sent, got marks %v", f.marks)
	}
	mustBeBusy(t, f, "replica-failover", map[string]any{})
	b := f.build(t, "replica-failover", "B", nil)
	if err := b.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("B's Unlock of A's lock: want ErrNotHeld, got %v", err)
	}
	if v, _ := f.m.Get("lock"); v != "A" {
		t.Fatalf("B's Unlock should leave A's lock alone, got %q", v)
	}
	mustUnlock(t, a)
	if f.m.Exists("lock") {
		t.Fatal("after Unlock the lock should be gone")
	}
}

// With wait_replicas 1 the lock counts only once a replica has it. A
// standalone server (miniredis answers WAIT with 0) never confirms: every
// SET that succeeds is released again, and Lock gives up at its acquire
// timeout with no key left behind.
func TestReplicaFailoverWaitWithoutReplicasIsNotAcquired(t *testing.T) {
	f := newFixture(t)
	if n, err := f.rdb.Do(context.Background(), "wait", 1, 100).Int64(); err != nil || n != 0 {
		t.Fatalf("this test assumes a standalone server answers WAIT with 0, got %d, %v", n, err)
	}
	a := f.build(t, "replica-failover", "A", map[string]any{"wait_replicas": 1, "acquire_timeout": "300ms"})
	if err := a.Lock(context.Background()); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("Lock without a replica: want ErrNotAcquired, got %v", err)
	}
	// Attempts at 0, 100, 200 and 300ms; each one's SET won and its WAIT lost.
	if f.count("not-replicated") != 4 || f.count("replicated") != 0 {
		t.Fatalf("want 4 SETs released after WAIT, got marks %v", f.marks)
	}
	if f.m.Exists("lock") {
		t.Fatal("the unreplicated lock should have been released")
	}
}

// ---- Row 17: MySQL unique key ----------------------------------------------

// sqliteDB is the lock's SQL interface over an embedded SQLite, with the
// table internal/sim creates; it counts the statements and keeps the last
// error.
type sqliteDB struct {
	db    *sql.DB
	execs int
	last  error
}

func newSQLite(t *testing.T) *sqliteDB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one connection holds the in-memory database
	t.Cleanup(func() { db.Close() })
	// sim.LocksTable's statement: the lock code does not import the engine
	// (the package map, TestPackageMap), and its tests keep to that too.
	if _, err := db.Exec("CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT NOT NULL, created_ms INTEGER NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	return &sqliteDB{db: db}
}

func (d *sqliteDB) Exec(ctx context.Context, stmt string, args ...any) (int64, error) {
	d.execs++
	res, err := d.db.ExecContext(ctx, stmt, args...)
	d.last = err
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// row reads the lock row back: its owner and creation time, ok=false if
// there is none.
func (d *sqliteDB) row(t *testing.T, name string) (owner string, created int64, ok bool) {
	t.Helper()
	err := d.db.QueryRow("SELECT owner, created_ms FROM locks WHERE name = ?", name).Scan(&owner, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return owner, created, true
}

func (f *fixture) mysql(t *testing.T, d *sqliteDB, owner string) Locker {
	t.Helper()
	return NewMySQLUniqueKey(Config{SQL: d, Clock: f.clock, Owner: owner}, nil)
}

// The lock is a row keyed by the resource: Lock inserts it, a duplicate
// key keeps every other Lock retrying (the same owner's too: not
// re-entrant), Unlock deletes it, and a second Unlock finds nothing.
func TestMySQLUniqueKeyRow(t *testing.T) {
	f := newFixture(t)
	d := newSQLite(t)
	a, b := f.mysql(t, d, "A"), f.mysql(t, d, "B")
	mustLock(t, a)
	if owner, created, ok := d.row(t, "lock"); !ok || owner != "A" || created != f.clock.t.UnixMilli() {
		t.Fatalf("want row lock owned by A created at %d, got ok=%v owner %q created %d", f.clock.t.UnixMilli(), ok, owner, created)
	}

	for _, who := range []struct {
		name string
		l    Locker
	}{{"B", b}, {"A again", a}} {
		d.execs = 0
		f.clock.limit = f.clock.sleeps + 3
		if err := who.l.Lock(context.Background()); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: Lock while A's row exists should retry until the clock stops it, got %v", who.name, err)
		}
		if d.execs != 4 || !isDuplicateKey(d.last) {
			t.Fatalf("%s: want 4 INSERTs refused for a duplicate key, got %d, last error %v", who.name, d.execs, d.last)
		}
		if owner, _, ok := d.row(t, "lock"); !ok || owner != "A" {
			t.Fatalf("%s: A's row should be untouched, got ok=%v owner %q", who.name, ok, owner)
		}
	}
	f.clock.limit = 0

	mustUnlock(t, a)
	if _, _, ok := d.row(t, "lock"); ok {
		t.Fatal("after Unlock the row should be gone")
	}
	if err := a.Unlock(context.Background()); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("a second Unlock: want ErrNotHeld, got %v", err)
	}
	mustLock(t, b)
	if owner, _, ok := d.row(t, "lock"); !ok || owner != "B" {
		t.Fatalf("after A's Unlock B should get the row, got ok=%v owner %q", ok, owner)
	}
}

// The lesson's flaw: Unlock deletes by primary key without looking at the
// owner (seed 004: deleteByPrimaryKey), so anyone's Unlock frees A's lock.
func TestMySQLUniqueKeyUnlockIgnoresOwner(t *testing.T) {
	f := newFixture(t)
	d := newSQLite(t)
	mustLock(t, f.mysql(t, d, "A"))
	mustUnlock(t, f.mysql(t, d, "B"))
	if _, _, ok := d.row(t, "lock"); ok {
		t.Fatal("B's Unlock should have deleted A's row")
	}
}

// isDuplicateKey reports whether err is a database's duplicate primary key
// error (MySQL 1062 "Duplicate entry", SQLite "UNIQUE constraint failed").
// The lock itself treats every INSERT error as busy, as seed 004 does; the
// tests tell a refusal for a duplicate key from any other failure.
func isDuplicateKey(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "Duplicate entry") || strings.Contains(err.Error(), "UNIQUE constraint failed"))
}

// isDuplicateKey recognises SQLite's real duplicate primary key error
// (and MySQL's 1062 text), and nothing else.
func TestIsDuplicateKey(t *testing.T) {
	d := newSQLite(t)
	ctx := context.Background()
	if _, err := d.Exec(ctx, InsertLock, "lock", "A", 1); err != nil {
		t.Fatal(err)
	}
	_, dup := d.Exec(ctx, InsertLock, "lock", "B", 2)
	if dup == nil || !isDuplicateKey(dup) {
		t.Fatalf("a second row with the same name: want a duplicate key error, got %v", dup)
	}
	_, other := d.Exec(ctx, "INSERT INTO nowhere (name) VALUES (?)", "lock")
	if other == nil || isDuplicateKey(other) {
		t.Fatalf("a missing table is not a duplicate key, got %v", other)
	}
	mysql := errors.New("Error 1062 (23000): Duplicate entry 'lock' for key 'locks.PRIMARY'")
	if isDuplicateKey(nil) || !isDuplicateKey(mysql) {
		t.Fatal("want nil not a duplicate key and MySQL's 1062 one")
	}
}

// Redlock is not re-entrant: an owner that asks again while it holds the
// lock loses the vote on its own keys. The lost vote must not release the
// lease it already holds (its value on every master is that lease), or a
// nested Lock would silently hand the lock to anyone waiting.
func TestRedlockNestedLockKeepsTheHeldLease(t *testing.T) {
	c := newCluster(t, 5)
	a := c.redlock(t, "A", nil, map[string]any{"tries": 2})
	mustLock(t, a)
	if err := a.Lock(context.Background()); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("A's nested Lock: want ErrNotAcquired, got %v", err)
	}
	if n := c.holders("A"); n != 5 {
		t.Fatalf("A's lost nested vote released its own lease: A holds %d masters, want 5 (marks %v)", n, c.f.marks)
	}
	if err := a.Unlock(context.Background()); err != nil {
		t.Fatalf("A's Unlock: %v", err)
	}
	if n := c.holders("A"); n != 0 {
		t.Fatalf("after Unlock A still holds %d masters", n)
	}
}

// The quorum is a parameter so that a lesson can show why it must be a
// majority. All five masters, a quorum of 2: while C's keys stand on r3-r5,
// A wins r1 and r2 — enough. C's keys expire; B wins r3, r4 and r5. Two
// clients hold "the" lock; with the default majority A would have failed.
func TestRedlockQuorumBelowAMajorityLetsTwoWin(t *testing.T) {
	c := newCluster(t, 5)
	ctx := context.Background()
	for _, r := range c.nodes[2:] {
		if err := r.SetNX(ctx, "lock", "C", time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	strict := c.redlock(t, "A", nil, map[string]any{"tries": 1})
	if err := strict.Lock(ctx); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("with a majority quorum, 2 of 5 must not win: got %v", err)
	}
	a := c.redlock(t, "A", nil, map[string]any{"quorum": 2, "tries": 1})
	mustLock(t, a)
	for _, m := range c.servers[2:] {
		m.Del("lock") // C's lease runs out
	}
	b := c.redlock(t, "B", nil, map[string]any{"quorum": 2, "tries": 1})
	if err := b.Lock(ctx); err != nil {
		t.Fatalf("B with a quorum of 2: want the lock on r3-r5, got %v", err)
	}
	if na, nb := c.holders("A"), c.holders("B"); na != 2 || nb != 3 {
		t.Fatalf("want A on 2 masters and B on 3, got %d and %d", na, nb)
	}
}
