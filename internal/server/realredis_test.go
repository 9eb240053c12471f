package server

import (
	"testing"
	"testing/fstest"
	"time"

	"net/http/httptest"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/realredis"
	"github.com/lockstep/lockstep/internal/realredis/redistest"
	"github.com/lockstep/lockstep/internal/scenario"
)

// A session on real Redis spends most of a run waiting for Redis' clock
// (a lease of seconds runs out in seconds). It waits with its engine slot
// given back: on a server with a single slot, another session's step does
// not wait for the first one's seconds.
func TestARealRedisWaitHoldsNoSlot(t *testing.T) {
	redis := redistest.Start(t, "--notify-keyspace-events", "Kx")
	targets, err := realredis.ParseURLs(redis.URL(), false)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := realredis.NewServers(targets, false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(Options{Catalog: f, Servers: servers, RealRedis: redis.URL(),
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	app.cpu, app.bulk = make(chan struct{}, 1), make(chan struct{}, 1) // one slot: any holder blocks the rest
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })

	waiter, _, _ := dial(t, ts.URL, "")
	waiter.hello("")
	waiter.send(map[string]any{"op": "load", "scenario": "blind-del-long-work"})
	waiter.next("state")
	other, _, _ := dial(t, ts.URL, "")
	other.hello("")
	other.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	other.next("state")

	start := time.Now()
	waiter.send(map[string]any{"op": "seek", "step": 50000}) // seconds of Redis' clock
	time.Sleep(300 * time.Millisecond)
	asked := time.Now()
	other.send(map[string]any{"op": "step"})
	other.next("state")
	took := time.Since(asked)
	_ = waiter.ws.SetReadDeadline(time.Now().Add(time.Minute))
	for {
		var m Message
		if err := waiter.ws.ReadJSON(&m); err != nil {
			t.Fatalf("the waiting session: %v", err)
		}
		if m.Type == "state" {
			if !m.Snap.Ended {
				t.Fatalf("the waiting session: expected its run to the end, got step %d", m.Snap.Step)
			}
			break
		}
	}
	whole := time.Since(start)
	t.Logf("one session's run to its end took %s of Redis' clock; another's step meanwhile %s", whole.Round(time.Millisecond), took.Round(time.Microsecond))
	if took > time.Second { // a sanity bound: a step is milliseconds; holding the slot, it waited 2.5s for Redis' clock
		t.Errorf("a step took %s while another session waited for Redis' clock (%s in all)", took, whole)
	}
}

// Finding 9 of the school review: with its Redis server gone, a load or
// a reset answered `error`; like a step, they answer `redis-lost`, which
// tells the teacher to check the Redis server.
func TestLoadAndResetDuringARedisOutageSayRedisLost(t *testing.T) {
	redis := redistest.Start(t, "--notify-keyspace-events", "Kx")
	targets, err := realredis.ParseURLs(redis.URL(), false)
	if err != nil {
		t.Fatal(err)
	}
	servers, err := realredis.NewServers(targets, false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(Options{Catalog: f, Servers: servers, RealRedis: redis.URL(),
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })
	c, _, _ := dial(t, ts.URL, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	redis.Kill()
	for _, req := range []map[string]any{{"op": "reset"}, {"op": "load", "scenario": "no-lock-oversell"}} {
		c.send(req)
		if m := c.next("error"); m.Code != "redis-lost" {
			t.Errorf("%v with the Redis server gone: got code %q (%s), want redis-lost", req["op"], m.Code, m.Error)
		}
	}
}
