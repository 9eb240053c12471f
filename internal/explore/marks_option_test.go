package explore

import (
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// Marks keeps a client fault to the marks named. The Lua lock of
// lua-cad-slow-release, two clients, a pause budget: with Marks: enter,
// every pause of every schedule lands as a client enters its critical
// section (a scripted fault on an enter mark), never at a step or another
// mark; and since a pause there outlasts the lease's slack, the
// exhaustive search still finds the lease problem.
func TestMarksKeepClientFaultsThere(t *testing.T) {
	sc := lessonNamed(t, "lua-cad-slow-release", "pause:5s")
	sc.Clients = sc.Clients[:2]
	res := search(t, sc, Options{Strategy: Exhaustive, Marks: []string{sim.MarkEnter}})
	if !res.Complete {
		t.Fatalf("the search did not complete: %d schedules", res.Schedules)
	}
	if res.Verdict != "mutual-exclusion" {
		t.Fatalf("want mutual-exclusion found with pauses at enter, got %q (%s)", res.Verdict, res.CountsText())
	}
	for _, a := range res.Found {
		if a.Do == "pause" && (a.On == nil || a.On.Name != sim.MarkEnter) {
			t.Errorf("a pause placed elsewhere than at an enter mark: %+v", a)
		}
	}
	// Without the option the same search has more places for its pause:
	// more schedules.
	all := search(t, sc, Options{Strategy: Exhaustive})
	if all.Schedules <= res.Schedules {
		t.Errorf("the search without Marks ran %d schedules, with Marks: enter %d; want fewer with", all.Schedules, res.Schedules)
	}
	// The random walk keeps to the marks too.
	rnd := search(t, sc, Options{Strategy: Random, Runs: 200, Marks: []string{sim.MarkEnter}, NoShrink: true})
	for _, a := range rnd.Found {
		if a.Do == "pause" && (a.On == nil || a.On.Name != sim.MarkEnter || a.On.Client != a.Client) {
			t.Errorf("random: a pause placed elsewhere than at its own client's enter mark: %+v", a)
		}
	}
}

// First stops the exhaustive search at its first find, the schedule the
// full search finds first; without it the search runs on to count every
// schedule's verdicts.
func TestFirstStopsTheExhaustiveSearch(t *testing.T) {
	sc := lessonNamed(t, "lua-cad-slow-release", "pause:5s")
	sc.Clients = sc.Clients[:2]
	full := search(t, sc, Options{Strategy: Exhaustive, NoShrink: true})
	first := search(t, sc, Options{Strategy: Exhaustive, NoShrink: true, First: true})
	if first.Verdict != full.Verdict || first.FoundAt != full.FoundAt {
		t.Fatalf("First found %q in schedule %d, the full search %q in schedule %d", first.Verdict, first.FoundAt, full.Verdict, full.FoundAt)
	}
	if first.Schedules != first.FoundAt || first.Complete {
		t.Errorf("First ran %d schedules (complete %v); want it to stop at %d", first.Schedules, first.Complete, first.FoundAt)
	}
	if full.Schedules <= first.Schedules || !full.Complete {
		t.Errorf("without First: %d schedules, complete %v; want all of them", full.Schedules, full.Complete)
	}
}
