package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// onlySession is the server's one session.
func onlySession(t *testing.T, app *Server) *session {
	t.Helper()
	app.mu.Lock()
	defer app.mu.Unlock()
	if len(app.sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(app.sessions))
	}
	for _, s := range app.sessions {
		return s
	}
	return nil
}

// runawayYAML is internal/explore/testdata/runaway.yaml: sixteen pools of
// 64 threads retrying every nanosecond for ten virtual minutes, a schedule
// of up to 100,000 steps; one schedule takes about a minute on one core.
func runawayYAML(t *testing.T) (string, *scenario.Scenario) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "explore", "testdata", "runaway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse("runaway.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), &f.Scenarios[0]
}

// The runaway file, searched from the browser, stays inside its budgets:
// its 16,016 client threads (a thread per request in a pool) need a
// session budget of 384 MiB to load at all, and its search reserves, from
// explore-started to its end, one schedule's world at most (about 313 MiB)
// and as many states as fit in the rest of a session's budget. It ends at
// its 10 s deadline not complete, with no verdict and no error, having
// finished one schedule at most (its first, cut at 100,000 steps, takes
// most of a minute on a loaded machine but has been seen to end in time),
// and the reservation is given back: the server counts the session's run
// alone.
func TestTheRunawaySearchStaysInItsBudgets(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("builds the runaway world twice (16,016 threads each) and searches for 10 s")
	}
	app, url := newTestServer(t, Limits{MaxSessionMemory: 384 << 20, MaxMemory: 1 << 30})
	c, _, _ := dial(t, url, "")
	c.hello("")
	yaml, sc := runawayYAML(t)
	c.send(map[string]any{"op": "load", "yaml": yaml})
	c.nextWithin("state", time.Minute)
	s := onlySession(t, app)
	need, states := app.searchNeed(sc)
	c.send(map[string]any{"op": "explore"})
	c.next("explore-started")
	start := time.Now()
	if got := s.searchCost.Load(); got != need || app.total.Load() != s.cost.Load()+need {
		t.Errorf("while it runs: the search reserves %d bytes, the server counts %d beside the session's %d; want %d reserved (%d states) and counted",
			got, app.total.Load(), s.cost.Load(), need, states)
	}
	done := c.nextWithin("explore-done", exploreTime+10*time.Second)
	took := time.Since(start)
	sum := exploreExtra(t, done)
	t.Logf("the runaway search: explore-done after %s, %d schedules, %d states; reserved %s (%d states kept at most)",
		took, sum.Schedules, sum.States, mib(need), states)
	if done.Error != "" || sum.Schedules > 1 || sum.Complete || sum.Verdict != "" {
		t.Errorf("want the search cut at its deadline with one schedule finished at most, got error %q, %+v", done.Error, sum)
	}
	if took > exploreTime+5*time.Second {
		t.Errorf("explore-done came %s after explore-started: over the search's %s and a few seconds", took, exploreTime)
	}
	if got := s.searchCost.Load(); got != 0 || app.total.Load() != s.cost.Load() {
		t.Errorf("after the search: %d bytes still reserved, the server counts %d for a session of %d", got, app.total.Load(), s.cost.Load())
	}
}

// A search ends when its session ends, as an eviction ends it: with both
// slots held by the test, the search waits for its first slice, its
// reservation counted meanwhile; the session is ended, and the search
// gives the reservation back while the test still holds the slots (the
// server counts nothing: the session's run is gone too). Had the search
// not seen its session end, it would have waited for the slots, its
// reservation held, until its 10 s deadline.
func TestASearchEndsWithItsSession(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	app.cpu, app.bulk = make(chan struct{}, 1), make(chan struct{}, 1) // one slot each
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "fencing-token-rejects-stale"})
	c.next("state")
	s := onlySession(t, app)
	app.bulk <- struct{}{} // the test holds the slots, as another session's long work would
	app.cpu <- struct{}{}
	defer func() { <-app.cpu; <-app.bulk }()
	c.send(map[string]any{"op": "explore", "budget": "pause:5s"})
	c.next("explore-started")
	if held := s.searchCost.Load(); held == 0 || app.total.Load() != s.cost.Load()+held {
		t.Fatalf("a search waiting for its slice: %d bytes reserved, the server counts %d beside the session's %d", held, app.total.Load(), s.cost.Load())
	}
	s.end()
	end := time.Now().Add(5 * time.Second)
	for s.searchCost.Load() != 0 || app.total.Load() != 0 {
		if time.Now().After(end) {
			t.Fatalf("5 s after its session ended: the search still holds %d bytes, the server counts %d", s.searchCost.Load(), app.total.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A search the server's memory budget has no room for is refused before
// it starts, with the code a load gets (server-memory): the heavy
// session's run counts about 7.1 MiB from its load, and its search would
// hold a world as big and states up to a session's budget (8 MiB in
// all): 15 MiB on a 12 MiB budget. The refusal leaves nothing counted
// and no search running: the same session, with a small lesson loaded
// (well under 1 MiB), searches it.
func TestASearchTheServerHasNoRoomForIsRefused(t *testing.T) {
	app, url := newTestServer(t, Limits{MaxSessionMemory: 8 << 20, MaxMemory: 12 << 20})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "yaml": heavyYAML(20)})
	c.next("state")
	s := onlySession(t, app)
	before := app.total.Load()
	c.send(map[string]any{"op": "explore"})
	e := c.next("error")
	if e.Code != "server-memory" || e.Args["need"] != "8 MiB" || e.Args["max"] != "12 MiB" || !strings.HasPrefix(e.Error, "explore: the search needs about 8 MiB") {
		t.Fatalf("a search of the heavy run on a 12 MiB budget: got %q %v %q, want server-memory needing 8 MiB of 12 MiB", e.Code, e.Args, e.Error)
	}
	if s.searchCost.Load() != 0 || app.total.Load() != before {
		t.Errorf("after the refusal: %d bytes reserved, the server counts %d (was %d)", s.searchCost.Load(), app.total.Load(), before)
	}
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	c.send(map[string]any{"op": "explore", "budget": "pause:5s"})
	c.next("explore-started")
	if done := c.next("explore-done"); done.Error != "" || exploreExtra(t, done).Verdict == "" {
		t.Errorf("the small lesson's search: got %q, want a violation found", done.Error)
	}
}

// An idle session evicted to make room takes its search's reservation
// with it at once, as it does its run's: the idle session's search (8 MiB,
// waiting for the slots the test holds) and run leave room on a 12 MiB
// budget for another session's heavy load (about 7.1 MiB), admitted as
// its load admits it (before its run is built). Had the eviction left the
// search's reservation to the search's own end (a world built and a few
// steps after its cancel), the load would have found it still counted.
func TestAnEvictedSessionsSearchMakesRoomAtOnce(t *testing.T) {
	app, url := newTestServer(t, Limits{MaxSessionMemory: 8 << 20, MaxMemory: 12 << 20})
	app.cpu, app.bulk = make(chan struct{}, 1), make(chan struct{}, 1) // one slot each
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "fencing-token-rejects-stale"})
	c.next("state")
	idle := onlySession(t, app)
	app.bulk <- struct{}{} // the test holds the slots: the search waits for its first slice
	app.cpu <- struct{}{}
	defer func() { <-app.cpu; <-app.bulk }()
	c.send(map[string]any{"op": "explore", "budget": "pause:5s"})
	c.next("explore-started")
	c.ws.Close()
	for end := time.Now().Add(5 * time.Second); idle.open.Load() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the server did not see the socket end within 5 s")
		}
	}
	f, err := scenario.Parse("heavy.yaml", []byte(heavyYAML(20)))
	if err != nil {
		t.Fatal(err)
	}
	busy := newSession(app, "busy")
	defer busy.stop()
	if err := busy.admit(&f.Scenarios[0]); err != nil {
		t.Fatalf("a heavy load beside an idle session searching: %v; want it admitted once the idle session is evicted", err)
	}
	if held := idle.searchCost.Load(); held != 0 || app.Sessions() != 0 {
		t.Errorf("after the eviction: the idle session's search holds %d bytes, %d sessions left", held, app.Sessions())
	}
}
