package sim_test

import (
	"context"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/sim"
)

// watchBuyer reads the stock under WATCH and thinks for 10ms before its
// MULTI / EXEC: go-redis's Watch closes the transaction (UNWATCH) from a
// deferred call, so a crash during the thinking runs that call while the
// thread unwinds.
func watchBuyer(ctx context.Context, p *sim.Proc) error {
	r := p.Redis("redis")
	return r.Watch(ctx, func(tx *redis.Tx) error {
		if err := tx.Get(ctx, "stock").Err(); err != nil {
			return err
		}
		if err := p.Sleep(ctx, 10*time.Millisecond); err != nil {
			return err
		}
		_, err := tx.TxPipelined(ctx, func(pl redis.Pipeliner) error {
			pl.Decr(ctx, "stock")
			return nil
		})
		return err
	}, "stock")
}

func newWatchWorld(t *testing.T) *sim.World {
	t.Helper()
	w := sim.New(sim.Config{Seed: 1})
	t.Cleanup(w.Close)
	w.AddNodeOn("redis", embedded.New(1))
	if err := w.Init("redis", map[string]string{"stock": "5"}, []string{"stock"}); err != nil {
		t.Fatal(err)
	}
	w.AddClient("A", watchBuyer, sim.ClientOptions{})
	w.AddClient("B", watchBuyer, sim.ClientOptions{Start: 20 * time.Millisecond})
	return w
}

// stepUntilThinking steps until A is parked inside Watch (past its GET,
// thinking or waiting for its EXEC).
func stepUntilThinking(t *testing.T, w *sim.World) {
	t.Helper()
	for w.Now() < 5*time.Millisecond {
		if !w.Step() {
			t.Fatal("the run ended before A was inside its transaction")
		}
	}
}

// A client crashed inside WATCH ... EXEC is dead: the UNWATCH that go-redis
// defers is never sent, its thread ends as crashed (no done event, no
// panic), and B buys after it.
func TestCrashInsideWatchSendsNothingAndDoesNotPanic(t *testing.T) {
	w := newWatchWorld(t)
	stepUntilThinking(t, w)
	if err := w.Apply(sim.Fault{Kind: sim.FaultCrash, Client: "A"}); err != nil {
		t.Fatal(err)
	}
	crashed := len(w.Log())
	w.Run()
	log := logText(w)
	for i, e := range w.Log() {
		if e.Fact != nil && e.Fact.Key == fact.Panic {
			t.Fatalf("a thread panicked: %s\n%s", e.String(), log)
		}
		if i >= crashed && e.Client == "A" && (e.Kind == sim.KindSend || e.Kind == sim.KindDone) {
			t.Fatalf("dead A still acts: %s\n%s", e.String(), log)
		}
	}
	if !strings.Contains(log, "done B") || !strings.Contains(log, "DECR stock") {
		t.Fatalf("B did not buy after A's crash:\n%s", log)
	}
}

// Closing a world while a client is inside WATCH unwinds it the same way.
func TestCloseInsideWatchDoesNotPanic(t *testing.T) {
	w := newWatchWorld(t)
	stepUntilThinking(t, w)
	w.Close()
	for _, e := range w.Log() {
		if e.Fact != nil && e.Fact.Key == fact.Panic {
			t.Fatalf("a thread panicked on close: %s\n%s", e.String(), logText(w))
		}
	}
}
