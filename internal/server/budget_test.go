package server

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// heavyYAML is the scenario of the report that took 45 MB a session: 16
// clients with a pool of 64 threads each, 1 µs of work and retry, a
// 10-minute horizon; requests per client as given.
func heavyYAML(requests int) string {
	var b strings.Builder
	b.WriteString("scenarios:\n  - id: heavy\n    title: {en: heavy}\n    horizon: 10m\n    data: {stock: \"1000000\"}\n    clients:\n")
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&b, "      - {name: C%d, algorithm: set-nx-ex-blind-del, params: {ttl: 3s, retry: 1us}, threads: 64, requests: %d, work: 1us}\n", i, requests)
	}
	b.WriteString("    expect: [safe]\n")
	return b.String()
}

// A scenario whose thread pools alone would outgrow a session's budget is
// refused before it is built, with an error naming the budget.
func TestAScenarioTooBigForTheBudgetIsRefused(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "yaml": heavyYAML(1000)})
	e := c.next("error")
	if !strings.Contains(e.Error, "16016 client threads") || !strings.Contains(e.Error, "session's memory budget of 32 MiB") {
		t.Errorf("heavy scenario: expected a refusal naming 16016 threads and the 32 MiB budget, got %q", e.Error)
	}
}

// A run that grows past a session's budget stops where it is, with an
// error naming the budget; the session keeps what it had and can step back.
func TestARunStopsAtTheSessionBudget(t *testing.T) {
	_, url := newTestServer(t, Limits{MaxSessionMemory: 1 << 20})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 5000})
	e := c.next("error")
	if !strings.Contains(e.Error, "over a session's memory budget of 1 MiB") {
		t.Fatalf("seek past the budget: expected an error naming the 1 MiB budget, got %q", e.Error)
	}
	s := c.next("state")
	if s.Snap.Ended || s.Snap.Step == 0 {
		t.Errorf("seek past the budget: expected the run stopped part way, got step %d ended=%v", s.Snap.Step, s.Snap.Ended)
	}
	c.send(map[string]any{"op": "seek", "step": 10})
	if s := c.next("state"); s.Snap.Step != 10 {
		t.Errorf("after the budget: expected to seek back to 10, got %d", s.Snap.Step)
	}
}

// Over the server's budget, idle sessions (no socket) make room first, the
// longest idle first; when the rest belong to open sockets, the run that
// grew stops with an error naming the server's budget.
func TestTheServerBudgetEvictsIdleSessionsFirst(t *testing.T) {
	app, url := newTestServer(t, Limits{MaxMemory: 3 << 20}) // the lesson to its end: about 2.2 MiB
	idle, _, _ := dial(t, url, "")
	idleID := idle.hello("").Session
	idle.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	idle.next("state")
	idle.send(map[string]any{"op": "seek", "step": 600})
	idle.next("state")
	idle.ws.Close()

	busy, _, _ := dial(t, url, "")
	busy.hello("")
	busy.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	busy.next("state")
	busy.send(map[string]any{"op": "seek", "step": 5000})
	if s := busy.next("state"); !s.Snap.Ended {
		t.Fatalf("the busy session: expected it to run to its end once the idle one made room, got step %d", s.Snap.Step)
	}
	if n := app.Sessions(); n != 1 {
		t.Errorf("expected the idle session evicted (1 session left), got %d", n)
	}
	back, _, _ := dial(t, url, "")
	if w := back.hello(idleID); w.Session == idleID {
		t.Errorf("the evicted session %s: expected a new session on resume, got the same", idleID)
	}

	third, _, _ := dial(t, url, "")
	third.hello("")
	third.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	third.next("state")
	third.send(map[string]any{"op": "seek", "step": 5000})
	if e := third.next("error"); !strings.Contains(e.Error, "server's memory budget of 3 MiB") {
		t.Errorf("no idle session left: expected an error naming the server's 3 MiB budget, got %q", e.Error)
	}
}

// However many sessions run the heavy scenario, the heap stays near the
// server's budget: a load it has no room for is refused (two of the four
// load, each counting about 7 MiB from its load), each run stops at a
// budget, and the estimate it is counted by is at or above what it holds
// (TestCostCalibration). The quarter over the budget is for what is not a
// run's (sockets, sessions) and for the last slice each run takes before
// its count is checked; the messages still in flight are drained before
// the heap is measured. Measured: 16 to 18 MiB (both runs stop at about
// 8.3 MiB estimated). With the estimate of a live thread at 4 KiB (its
// stack alone takes 8 KiB) the heap grew by 39 MiB here. Under the race
// detector the heap is not a normal build's (its goroutine stacks and
// objects are larger: 24 MiB here, on the old code as well): the runs
// must still stop at a budget, but the heap is held to the budget only
// without it (scripts/test.sh runs this test without it too).
func TestHeavySessionsStayWithinTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the heavy scenario")
	}
	lim := Limits{MaxSessionMemory: 8 << 20, MaxMemory: 16 << 20}
	_, url := newTestServer(t, lim)
	before := heapNow()
	var socks []*client
	for i := range 4 {
		c, _, _ := dial(t, url, "")
		c.hello("")
		c.send(map[string]any{"op": "load", "yaml": heavyYAML(20)}) // 336 threads: at most about 7 MiB
		m := c.read()
		for m.Type != "state" && m.Type != "error" {
			m = c.read()
		}
		switch {
		case m.Type == "state":
			socks = append(socks, c)
		case m.Code != "server-memory": // no room left: TestALoadTheServerHasNoRoomForIsRefused
			t.Fatalf("heavy session %d: load answered %q %q", i, m.Code, m.Error)
		}
	}
	if len(socks) < 2 {
		t.Fatalf("4 heavy loads of about 7 MiB on a 16 MiB budget: %d loaded, want at least 2", len(socks))
	}
	for _, c := range socks {
		c.send(map[string]any{"op": "seek", "step": 5000})
	}
	for i, c := range socks {
		// The seek's answer: an error if the run stopped, else its state.
		_ = c.ws.SetReadDeadline(time.Now().Add(time.Minute))
		for {
			var m Message
			if err := c.ws.ReadJSON(&m); err != nil {
				t.Fatalf("heavy session %d: waiting for the seek's answer: %v", i, err)
			}
			if m.Type == "error" && !strings.Contains(m.Error, "memory budget") {
				t.Errorf("heavy session %d: expected to stop at a memory budget, got %q", i, m.Error)
			}
			if m.Type == "state" && m.Re == c.id {
				t.Errorf("heavy session %d: expected to stop at a memory budget, ran to step %d", i, m.Snap.Step)
			}
			if m.Type == "error" || m.Re == c.id {
				break
			}
		}
	}
	for _, c := range socks {
		drain(c, 300*time.Millisecond)
	}
	grew := heapNow() - before
	t.Logf("%d heavy sessions loaded, after their seeks: the heap grew by %s", len(socks), mib(grew))
	if most := lim.MaxMemory + lim.MaxMemory/4; grew > most && !raceDetector {
		t.Errorf("heavy sessions: expected the heap to grow by at most %s (the %s budget and a quarter), it grew by %s", mib(most), mib(lim.MaxMemory), mib(grew))
	}
}

// drain reads what the server still sends c until it has been quiet for
// d (the messages in flight are not what the budget governs); c's socket
// is of no further use after it.
func drain(c *client, d time.Duration) {
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(d))
		if _, _, err := c.ws.ReadMessage(); err != nil {
			return
		}
	}
}

func heapNow() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse + m.StackInuse)
}

// Two sessions seeking deep into the heavy scenario leave a third its
// turn: their seeks run in slices, so the third's steps are answered while
// both seeks are still running, never after a whole seek. The test states
// the order of the answers, not their speed (the latency is logged; the
// load test measures it).
func TestLongSeeksShareTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the heavy scenario")
	}
	_, url := newTestServer(t, Limits{})
	var seeking sync.WaitGroup
	var done atomic.Int32 // seeks answered
	for range 2 {
		h, _, _ := dial(t, url, "")
		h.hello("")
		h.send(map[string]any{"op": "load", "yaml": heavyYAML(100)})
		h.next("state")
		h.id++
		if err := h.ws.WriteJSON(map[string]any{"op": "seek", "step": 40000, "id": h.id}); err != nil {
			t.Fatal(err)
		}
		seeking.Add(1)
		go func(id int) {
			defer seeking.Done()
			for {
				var m Message
				if h.ws.ReadJSON(&m) != nil || m.Re == id {
					done.Add(1)
					return
				}
			}
		}(h.id)
	}
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	c.next("state")
	var took []time.Duration
	answeredDuringSeeks := 0
	for range 20 {
		start := time.Now()
		c.send(map[string]any{"op": "step"})
		c.next("state")
		took = append(took, time.Since(start))
		if done.Load() == 0 {
			answeredDuringSeeks++
		}
	}
	seeking.Wait()
	slices.Sort(took)
	t.Logf("step round trip during two heavy seeks: p50 %s, max %s; %d of 20 steps answered before either seek", took[len(took)/2], took[len(took)-1], answeredDuringSeeks)
	if answeredDuringSeeks < 20 {
		t.Errorf("a step waited for a whole seek: only %d of 20 steps were answered while two seeks of 40,000 steps ran", answeredDuringSeeks)
	}
}

// A load the server's budget has no room for is refused before it is
// built, with the code server-memory: each heavy run counts, from its load,
// what its threads may come to hold (about 7 MiB), so that two fill a
// 16 MiB budget and a third would find it spent only after it was built.
// An idle session (no socket) makes room first.
func TestALoadTheServerHasNoRoomForIsRefused(t *testing.T) {
	lim := Limits{MaxSessionMemory: 8 << 20, MaxMemory: 16 << 20}
	app, url := newTestServer(t, lim)
	var socks []*client
	for range 2 {
		c, _, _ := dial(t, url, "")
		c.hello("")
		c.send(map[string]any{"op": "load", "yaml": heavyYAML(20)})
		c.next("state")
		socks = append(socks, c)
	}
	third, _, _ := dial(t, url, "")
	third.hello("")
	third.send(map[string]any{"op": "load", "yaml": heavyYAML(20)})
	if e := third.next("error"); e.Code != "server-memory" || !strings.Contains(e.Error, "server's memory budget of 16 MiB") {
		t.Fatalf("a third heavy load on a 16 MiB budget: expected server-memory naming the budget, got %q %q", e.Code, e.Error)
	}
	socks[0].ws.Close() // its session is idle once the server sees the socket end
	for try := 0; ; try++ {
		third.send(map[string]any{"op": "load", "yaml": heavyYAML(20)})
		m := third.read()
		for m.Type != "state" && m.Type != "error" {
			m = third.read()
		}
		if m.Type == "state" {
			break
		}
		if m.Code != "server-memory" || try == 100 {
			t.Fatalf("a heavy load beside an idle heavy session: expected it to load, got %q %q", m.Code, m.Error)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n := app.Sessions(); n != 2 {
		t.Errorf("the idle heavy session: expected it evicted to make room (2 sessions left), got %d", n)
	}
}

// Loads at once do not all find the same room: each is admitted with its
// reserve counted at once, before the next is looked at (and before its
// run is built), so that of six heavy loads on a 16 MiB budget two are
// admitted (about 7 MiB each) and four refused. With the reserve counted
// only once the run was built, all six were admitted here, and the memory
// test saw 25 of 50 cap scenarios load on 512 MiB (room for 16).
func TestLoadsAtOnceDoNotShareTheRoom(t *testing.T) {
	app, _ := newTestServer(t, Limits{MaxSessionMemory: 8 << 20, MaxMemory: 16 << 20})
	f, err := scenario.Parse("heavy.yaml", []byte(heavyYAML(20)))
	if err != nil {
		t.Fatal(err)
	}
	admitted := 0
	for i := range 6 {
		s := newSession(app, fmt.Sprintf("load-%d", i))
		defer s.stop()
		err := s.admit(&f.Scenarios[0]) // as its load does, its run not built yet
		var ce *codedError
		switch {
		case err == nil:
			admitted++
		case !errors.As(err, &ce) || ce.code != "server-memory":
			t.Fatalf("heavy load %d: %v", i, err)
		}
	}
	if admitted != 2 {
		t.Errorf("six heavy loads on a 16 MiB budget: %d admitted, want 2", admitted)
	}
}
