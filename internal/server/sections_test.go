package server

import (
	"slices"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// span is one client's critical section on the timeline: from the event
// that let it in to the one that took it out (0: still inside).
type span struct {
	client   string
	from, to int
}

// spansFromMarks is how the timeline drew critical sections before the
// server sent the checker's: a client is in from its first enter mark to
// its next leave mark, the end of any of its threads, or its crash.
func spansFromMarks(log []*sim.Event) []span {
	var out []span
	open := map[string]int{}
	leave := func(c string, seq int) {
		if i, ok := open[c]; ok {
			out[i].to = seq
			delete(open, c)
		}
	}
	for _, e := range log {
		switch {
		case e.Kind == sim.KindMark && e.Name == sim.MarkEnter:
			if _, ok := open[e.Client]; !ok {
				open[e.Client] = len(out)
				out = append(out, span{client: e.Client, from: e.Seq})
			}
		case e.Kind == sim.KindMark && e.Name == sim.MarkLeave, e.Kind == sim.KindDone,
			e.Kind == sim.KindFault && e.Name == string(sim.FaultCrash):
			leave(e.Client, e.Seq)
		}
	}
	return out
}

// spansFromChecker are the critical sections the server sends: the
// checker's changes of who is inside, event by event.
func spansFromChecker(ls *lesson.Session) []span {
	var out []span
	open := map[string]int{}
	for _, e := range ls.Log() {
		ch := ls.Sections(e.Seq)
		for _, c := range ch.Leave {
			out[open[c]].to = e.Seq
			delete(open, c)
		}
		for _, c := range ch.Enter {
			open[c] = len(out)
			out = append(out, span{client: c, from: e.Seq})
		}
	}
	return out
}

// The critical sections the server sends are the checker's. They are
// the ones the marks alone give (what the timeline drew before) in every
// lesson but four, where the marks alone were wrong: there they follow
// the checker, which the verdicts of those lessons follow too.
func TestSectionsAreTheCheckers(t *testing.T) {
	differ := map[string][]span{
		// A's watchdog thread ends at #88; A's main thread is still inside
		// until its leave mark at #93, and its stale write (#90) is inside.
		"watchdog-process-pause": {{"A", 10, 93}, {"B", 56, 72}},
		// A/req1 keeps the lock and never leaves: A stays inside, and
		// A/req2 enters while A/req1 is inside (the mutual-exclusion
		// verdict at #33).
		"thread-id-pool-reuse": {{"A", 14, 0}},
		// A's extend loop (its own thread) stops at #116 when an extend
		// fails; A's main thread works on, inside, until its leave at #147.
		"redsync-extend-after-restart": {{"A", 14, 147}, {"B", 98, 121}},
		// A's watchdog gives up at #136 (the lock is no longer A's); A's
		// main thread is inside until its leave at #159.
		"redisson-watchdog-misses-renewals": {{"A", 10, 159}, {"B", 121, 145}},
	}
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	withSections := 0
	for _, sc := range f.Scenarios {
		s, err := lesson.NewSession(&sc, lesson.Config{Seed: sc.Seed, Servers: embedded.Servers{}})
		if err == nil {
			err = s.RunToEnd()
		}
		if err != nil {
			t.Fatal(err)
		}
		want, ok := differ[sc.ID]
		if !ok {
			want = spansFromMarks(s.Log())
		}
		got := spansFromChecker(s)
		if !slices.Equal(got, want) {
			t.Errorf("%s: expected critical sections %v, got %v", sc.ID, want, got)
		}
		if len(got) > 0 {
			withSections++
		}
		s.Close()
	}
	if withSections < len(f.Scenarios)/2 {
		t.Errorf("only %d of %d lessons have a critical section: expected most", withSections, len(f.Scenarios))
	}
}
