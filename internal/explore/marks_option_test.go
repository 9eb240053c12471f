package explore

import (
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
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

// Points add a lock's flaw point to the marks a client fault may land at.
// setnx-expire-crash-between's two clients with a crash budget kept to
// the acquired and enter marks: both come after the EXPIRE, so every
// crash there leaves a key that expires, and the exhaustive search finds
// nothing. With the point {kind: exec, cmd: SETNX} a crash may also land
// right after a client's SETNX ran, before its EXPIRE: the key is left
// without a TTL and nobody frees it, the deadlock this lock is known for,
// recorded as a scripted fault on that exec event.
func TestPointsAddTheFlawPoint(t *testing.T) {
	sc := lessonNamed(t, "setnx-expire-crash-between", "crash")
	marks := []string{sim.MarkAcquired, sim.MarkEnter}
	without := search(t, sc, Options{Strategy: Exhaustive, Marks: marks, NoShrink: true})
	if without.Verdict != "" || !without.Complete {
		t.Fatalf("crashes at acquired and enter only: found %q (complete %v); want nothing, every schedule run", without.Verdict, without.Complete)
	}
	with := search(t, sc, Options{Strategy: Exhaustive, Marks: marks, First: true,
		Points: []scenario.Match{{Kind: string(sim.KindExec), Cmd: "SETNX"}}})
	if with.Verdict != "deadlock" {
		t.Fatalf("with the SETNX point: found %q, want deadlock", with.Verdict)
	}
	var on *scenario.Match
	for _, a := range with.Shrunk {
		if a.Do == string(sim.FaultCrash) {
			on = a.On
		}
	}
	if on == nil || on.Kind != string(sim.KindExec) || on.Cmd != "SETNX" || on.Client == "" {
		t.Fatalf("the crash is not recorded on a SETNX exec: %+v", with.Shrunk)
	}
	if got := with.Recording.Expect; len(got) != 1 || got[0] != "deadlock" {
		t.Errorf("the recording replays to %v, want [deadlock]", got)
	}
}
