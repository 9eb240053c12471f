package server

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func exploreExtra(t *testing.T, m Message) exploreSummary {
	t.Helper()
	if m.Explore == nil {
		t.Fatalf("%s: no extra", m.Type)
	}
	return *m.Explore
}

// "Find a bad schedule" on the blind DEL lesson with a pause budget: the
// search finds the flaw, and the shrunk schedule becomes the session's run,
// at its end, with the search's moves as its actions.
func TestExploreLoadsTheShrunkRun(t *testing.T) {
	c := openSession(t, Limits{})
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	c.send(map[string]any{"op": "explore", "budget": "pause:5s"})
	c.next("explore-started")
	done := c.next("explore-done")
	sum := exploreExtra(t, done)
	if done.Error != "" || sum.Verdict != "mutual-exclusion" || len(sum.Moves) == 0 {
		t.Fatalf("want mutual-exclusion found with moves, got %q, %+v", done.Error, sum)
	}
	s := c.next("state")
	steps := 0 // the moves at steps are the run's actions; faults on marks are its scripted faults
	for _, m := range sum.Moves {
		if m.On == nil {
			steps++
		}
	}
	if *s.From != 0 || !s.Snap.Ended || !slices.Contains(s.Snap.Verdicts, "mutual-exclusion") || len(s.Snap.Actions) != steps {
		t.Fatalf("want the shrunk run loaded at its end with its %d moves at steps, got from %d, ended %v, verdicts %v, actions %v",
			steps, *s.From, s.Snap.Ended, s.Snap.Verdicts, s.Snap.Actions)
	}
	if len(sum.Marks) < len(sum.Moves) {
		t.Errorf("%d events marked for %d moves", len(sum.Marks), len(sum.Moves))
	}

	// The found run travels as its YAML (what a share link carries): loaded
	// in another session with the run's actions, it replays to the same log.
	if sum.YAML == "" {
		t.Fatal("explore-done carries no YAML of the found run")
	}
	other := openSession(t, Limits{})
	other.send(map[string]any{"op": "load", "yaml": sum.YAML, "actions": s.Snap.Actions, "step": s.Snap.Step})
	r := other.next("state")
	if got, want := eventTexts(r.Events), eventTexts(s.Events); got != want {
		t.Errorf("the found run from its YAML: want the same log\n%s\ngot\n%s", want, got)
	}
}

func eventTexts(es []wireEvent) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(e.Text + "\n")
	}
	return b.String()
}

// A search can be cancelled; a second one while one runs, a bad budget and
// an unknown strategy are refused.
func TestExploreCancelAndRefusals(t *testing.T) {
	c := openSession(t, Limits{})
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-after-acquire"})
	c.next("state")
	c.send(map[string]any{"op": "explore", "budget": "pause:1s", "strategy": "exhaustive"})
	c.next("explore-started")
	c.send(map[string]any{"op": "explore"})
	if e := c.next("error"); !strings.Contains(e.Error, "already running") {
		t.Errorf("a second search: got %q", e.Error)
	}
	c.send(map[string]any{"op": "explore-cancel"})
	c.next("explore-cancelling")
	if sum := exploreExtra(t, c.next("explore-done")); !sum.Cancelled || sum.Complete {
		t.Errorf("want the search cancelled before covering everything, got %+v", sum)
	}
	for budget, want := range map[string]string{"pause": "needs a largest size", "heal:1s": "unknown fault"} {
		c.send(map[string]any{"op": "explore", "budget": budget})
		if e := c.next("error"); !strings.Contains(e.Error, want) {
			t.Errorf("budget %q: got %q, want %q", budget, e.Error, want)
		}
	}
	c.send(map[string]any{"op": "explore", "strategy": "dfs"})
	if e := c.next("error"); !strings.Contains(e.Error, "unknown strategy") {
		t.Errorf("strategy dfs: got %q", e.Error)
	}
}

// The shrunk run a search loads is the session's world like any other:
// what it costs in memory is counted, as after a load or a step.
func TestExploreAccountsTheLoadedRun(t *testing.T) {
	srv, url := newTestServer(t, Limits{})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	c.send(map[string]any{"op": "explore", "budget": "pause:5s"})
	if done := c.next("explore-done"); done.Error != "" || exploreExtra(t, done).Verdict == "" {
		t.Fatalf("want a violation found, got %q", done.Error)
	}
	s := c.next("state")
	srv.mu.Lock()
	var sess *session
	for _, x := range srv.sessions {
		sess = x
	}
	srv.mu.Unlock()
	counted := make(chan [2]int64, 1) // what the session counts, what its world costs
	if !sess.do(func() { counted <- [2]int64{sess.cost.Load(), cost(sess.ls)} }) {
		t.Fatal("the session is gone")
	}
	got := <-counted
	if got[0] != got[1] || srv.total.Load() != got[1] {
		t.Errorf("the run of %d events costs %d bytes; the session counts %d, the server %d", s.Snap.Events, got[1], got[0], srv.total.Load())
	}
}

// A search runs on the engine's slots, in slices, as a seek does: while
// the only slots are taken, it makes no progress; once they are free, it
// goes on, and a cancel ends it. (Outside the slots, two searches took both
// CPUs and a healthy step's median went from 0.7 ms to 15 ms.) The lock
// is a sound one, so that the search goes on for its whole time and says
// how far it got every quarter second.
func TestASearchRunsOnTheEngineSlots(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	app.cpu, app.bulk = make(chan struct{}, 1), make(chan struct{}, 1) // one slot each
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "fencing-token-rejects-stale"})
	c.next("state")
	app.bulk <- struct{}{} // the test holds the slots, as another session's long work would
	app.cpu <- struct{}{}
	c.send(map[string]any{"op": "explore", "budget": "pause:5s"})
	c.next("explore-started")
	got := make(chan Message, 64)
	go func() {
		for {
			var m Message
			if c.ws.ReadJSON(&m) != nil {
				close(got)
				return
			}
			got <- m
		}
	}()
	select {
	case m := <-got:
		t.Fatalf("while the slots are held: the search sent %s %q (it runs outside the slots)", m.Type, m.Error)
	case <-time.After(1500 * time.Millisecond):
	}
	<-app.cpu
	<-app.bulk
	progressed := false
	deadline := time.After(30 * time.Second)
	for {
		select {
		case m, ok := <-got:
			if !ok {
				t.Fatal("the socket closed before explore-done")
			}
			switch m.Type {
			case "explore-progress":
				if !progressed {
					c.send(map[string]any{"op": "explore-cancel"})
				}
				progressed = true
			case "explore-done":
				if !progressed {
					t.Errorf("once the slots were free: explore-done (%q) without progress before it", m.Error)
				}
				return
			}
		case <-deadline:
			t.Fatal("no explore-done 30 s after the slots were free")
		}
	}
}
