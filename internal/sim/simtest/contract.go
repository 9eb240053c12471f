// Package simtest holds the contract every sim.Backend must meet, as one
// test suite that the embedded backend (package embedded) and the real-Redis
// backend (package realredis) both run.
package simtest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// Setup is one backend under test, with the clock a world on it follows.
type Setup struct {
	Backend    sim.Backend
	Pace       sim.Pacer // nil for embedded Redis
	ClockJumps bool      // whether the backend's clock can jump (else ErrUnavailable)
}

// Open makes a fresh backend for one test; the world closes it.
type Open func(t *testing.T) Setup

// RunBackendContract runs the backend contract against the backends open
// makes: the same lessons must read the same on every backend.
func RunBackendContract(t *testing.T, open Open) {
	t.Run("StringsAndTTL", func(t *testing.T) { testStringsAndTTL(t, open) })
	t.Run("HashAndScript", func(t *testing.T) { testHashAndScript(t, open) })
	t.Run("InitFlushAndSnapshot", func(t *testing.T) { testInitFlush(t, open) })
	t.Run("ClockJump", func(t *testing.T) { testClockJump(t, open) })
}

func world(t *testing.T, open Open) (*sim.World, Setup) {
	t.Helper()
	s := open(t)
	w := sim.New(sim.Config{Seed: 1, Pace: s.Pace, Horizon: 5 * time.Second})
	t.Cleanup(w.Close)
	w.AddNodeOn("redis", s.Backend)
	return w, s
}

func find(w *sim.World, kind sim.Kind, cmd string) *sim.Event {
	for _, e := range w.Log() {
		if e.Kind == kind && (cmd == "" || len(e.Cmd) > 0 && e.Cmd[0] == cmd) {
			return e
		}
	}
	return nil
}

func logText(w *sim.World) string {
	var b strings.Builder
	for _, e := range w.Log() {
		b.WriteString(e.String() + "\n")
	}
	return b.String()
}

// A lock set with SET NX PX shows its value, owner and TTL; it expires as an
// event of its own at the TTL's end (within the server clock's precision),
// and a GET after that finds nothing.
func testStringsAndTTL(t *testing.T, open Open) {
	w, s := world(t, open)
	var got string
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		r := p.Redis("redis")
		tok := p.Token()
		if err := r.SetArgs(ctx, "lock", tok, redisSetNXPX(300*time.Millisecond)).Err(); err != nil {
			return err
		}
		if err := p.Sleep(ctx, 500*time.Millisecond); err != nil {
			return err
		}
		v, err := r.Get(ctx, "lock").Result()
		got = v + "|" + errString(err)
		return nil
	}, sim.ClientOptions{})
	w.Run()
	out := logText(w)
	set := find(w, sim.KindExec, "SET")
	if set == nil || set.Reply != "OK" || len(set.Keys) != 1 {
		t.Fatalf("SET exec = %v, want OK with the key's state\n%s", set, out)
	}
	ks := set.Keys[0]
	// A real server runs on the wall clock: the first command also dials
	// and sends HELLO after its exec moment, and under the race detector
	// the engine can trail Redis' clock by a few milliseconds, which the
	// TTL and the expiry show. Embedded Redis is exact.
	ttlLo, ttlHi, expSlack := int64(300), int64(300), time.Duration(0)
	if s.Pace != nil {
		ttlLo, ttlHi, expSlack = 295, 308, 15*time.Millisecond
	}
	if ks.Key != "lock" || ks.Owner != "A" || ks.TTL < ttlLo || ks.TTL > ttlHi {
		t.Fatalf("state after SET = %+v, want lock owned by A with ttl 300ms (a real server: within 8ms)\n%s", ks, out)
	}
	exp := find(w, sim.KindExpire, "")
	if exp == nil {
		t.Fatalf("no expire event\n%s", out)
	}
	if lo, hi := set.T+300*time.Millisecond, set.T+300*time.Millisecond+expSlack; exp.T < lo || exp.T > hi {
		t.Fatalf("expire at %s, want within [%s, %s]\n%s", sim.FormatTime(exp.T), sim.FormatTime(lo), sim.FormatTime(hi), out)
	}
	if got != "|redis: nil" {
		t.Fatalf("GET after expiry = %q, want nil\n%s", got, out)
	}
	get := find(w, sim.KindExec, "GET")
	if get == nil || get.T < exp.T || get.Reply != "(nil)" {
		t.Fatalf("GET exec = %v, want (nil) after the expiry\n%s", get, out)
	}
}

// Hash fields read back sorted by field; a script's KEYS are keys like any
// other (a prefix, if the backend has one, never shows).
func testHashAndScript(t *testing.T, open Open) {
	w, _ := world(t, open)
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		r := p.Redis("redis")
		tok := p.Token()
		if err := r.HSet(ctx, "h", "zeta", "1", tok, "2").Err(); err != nil {
			return err
		}
		return r.Eval(ctx, "return redis.call('set', KEYS[1], ARGV[1])", []string{"k"}, "x").Err()
	}, sim.ClientOptions{})
	w.Run()
	out := logText(w)
	hset := find(w, sim.KindExec, "HSET")
	if hset == nil || len(hset.Keys) != 1 || hset.Keys[0].Type != "hash" || hset.Keys[0].Owner != "A" {
		t.Fatalf("HSET exec = %v, want a hash owned by A\n%s", hset, out)
	}
	if v := hset.Keys[0].Value; !strings.HasSuffix(v, " zeta=1") {
		t.Fatalf("hash = %q, want fields sorted, zeta last\n%s", v, out)
	}
	ev := find(w, sim.KindExec, "EVAL")
	if ev == nil || len(ev.Keys) != 1 || ev.Keys[0].Key != "k" || ev.Keys[0].Value != "x" {
		t.Fatalf("EVAL exec = %v, want k=\"x\"\n%s", ev, out)
	}
	if strings.Contains(out, "lockstep:") {
		t.Fatalf("the log shows a key prefix:\n%s", out)
	}
}

// Initial data shows in the init event; a node restart without persistence
// leaves it empty.
func testInitFlush(t *testing.T, open Open) {
	w, _ := world(t, open)
	if err := w.Init("redis", map[string]string{"stock": "3", "a": "1"}, []string{"a", "stock"}); err != nil {
		t.Fatal(err)
	}
	if got := len(w.Node("redis").Snapshot()); got != 2 {
		t.Fatalf("snapshot has %d keys, want 2", got)
	}
	if err := w.Apply(sim.Fault{Kind: sim.FaultNodeCrash, Node: "redis"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Apply(sim.Fault{Kind: sim.FaultNodeRestart, Node: "redis"}); err != nil {
		t.Fatal(err)
	}
	if got := w.Node("redis").Snapshot(); len(got) != 0 {
		t.Fatalf("after a restart without persistence: %v, want no keys", got)
	}
}

// A node's clock jump works, or, on a server whose clock cannot jump on
// request, is refused as unavailable rather than faked.
func testClockJump(t *testing.T, open Open) {
	w, s := world(t, open)
	err := w.Apply(sim.Fault{Kind: sim.FaultClockJump, Node: "redis", By: time.Second})
	switch {
	case s.ClockJumps && err != nil:
		t.Fatalf("clock jump: %v, want it applied", err)
	case !s.ClockJumps && !errors.Is(err, sim.ErrUnavailable):
		t.Fatalf("clock jump: %v, want ErrUnavailable", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
