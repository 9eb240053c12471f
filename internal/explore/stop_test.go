package explore

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// runaway is testdata/runaway.yaml: one schedule of it takes about a
// minute on one core.
func runaway(t *testing.T) *scenario.Scenario {
	t.Helper()
	b, err := os.ReadFile("testdata/runaway.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.Parse("runaway.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	return &f.Scenarios[0]
}

// A file may not ask a search for more engine steps a schedule than a run
// may take: the runaway file with a billion steps is refused where it
// says so.
func TestExploreStepsBounded(t *testing.T) {
	b, err := os.ReadFile("testdata/runaway.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = scenario.Parse("runaway.yaml", []byte(strings.Replace(string(b), "steps: 100000", "steps: 1000000000", 1)))
	if err == nil || !strings.Contains(err.Error(), "over the limit of 100000") || !strings.Contains(err.Error(), "runaway.yaml:28:") {
		t.Fatalf("a billion steps: got %v, want an error at the explore section naming the limit", err)
	}
}

// Told to stop in the middle of a schedule, a search stops within a few
// engine steps: the Yield hook, called every paceSteps steps, is called
// no more after it cancels, and the search returns what it covered (no
// schedule finished).
func TestSearchStopsInsideASchedule(t *testing.T) {
	sc := runaway(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	yields, after := 0, 0
	start := time.Now()
	res, err := Search(ctx, sc, Options{Yield: func() error {
		yields++
		if yields > 40 {
			after++
		}
		if yields == 40 {
			cancel()
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if after != 0 || res.Schedules != 0 {
		t.Fatalf("after the cancel: %d more yields, %d schedules counted; want 0 and 0", after, res.Schedules)
	}
	t.Logf("stopped after %d yields (%d engine steps), %s", yields, yields*paceSteps, time.Since(start))
}

// A deadline stops the search the same way, through the whole stack: the
// runaway file searched for 300ms of wall-clock time ends well within a
// few seconds (one schedule alone would take a minute).
func TestSearchDeadlineInsideASchedule(t *testing.T) {
	sc := runaway(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := Search(ctx, sc, Options{})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a 300ms search of the runaway file returned after %s with %d schedules", took, res.Schedules)
	if took > 10*time.Second { // a sanity bound for a loaded machine, not a measurement
		t.Fatalf("the search took %s", took)
	}
}

// Yield's error stops the search and is returned, as a session's end or
// a budget would.
func TestYieldErrorStopsTheSearch(t *testing.T) {
	over := errors.New("over the budget")
	n := 0
	_, err := Search(context.Background(), runaway(t), Options{Yield: func() error {
		if n++; n == 10 {
			return over
		}
		return nil
	}})
	if !errors.Is(err, over) || n != 10 {
		t.Fatalf("got %v after %d yields, want the yield's error after 10", err, n)
	}
}

// A shrinking cut short at any point keeps a schedule that still gives the
// verdict: stopped after k replays, for every k, the shrinker returns a
// schedule and horizon that replay to it, and says it was cut unless it
// had finished.
func TestShrinkCutStillHolds(t *testing.T) {
	sc := lessonNamed(t, "blind-del-slow-release", "pause=3:5s,drop-reply=2")
	res := search(t, sc, Options{Seed: 2, NoShrink: true})
	if res.Verdict == "" || len(res.Found) < 2 {
		t.Fatalf("want a violation with a few entries to shrink, got %q, %v", res.Verdict, res.Found)
	}
	b, err := resolve(sc, sc.Explore)
	if err != nil {
		t.Fatal(err)
	}
	bsc := searchScenario(sc, b)
	yields := 0
	full := shrinker{p: newPacer(context.Background(), func() error { yields++; return nil }), sc: bsc, seed: sc.Seed, verdict: res.Verdict}
	if _, _, err := full.shrink(res.Found); err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= yields; k += max(1, yields/60) {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		p := newPacer(ctx, func() error {
			if n++; n > k {
				cancel()
			}
			return nil
		})
		sh := shrinker{p: p, sc: bsc, seed: sc.Seed, verdict: res.Verdict}
		got, h, err := sh.shrink(res.Found)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		check := shrinker{p: newPacer(context.Background(), nil), sc: bsc, seed: sc.Seed, verdict: res.Verdict}
		if ok, err := check.holds(got, h.D()); err != nil || !ok {
			t.Fatalf("cut after %d yields: %d entries, horizon %s no longer give %s (%v)", k, len(got), h, res.Verdict, err)
		}
		if !sh.cut && sh.replays != full.replays {
			t.Fatalf("cut after %d yields: not marked cut, but %d replays of %d", k, sh.replays, full.replays)
		}
	}
	t.Logf("%d entries found, %d replays (%d yields) to shrink them; every cut holds", len(res.Found), full.replays, yields)
}

// A schedule that reaches the search's step cap while several clients
// could still move is a cut schedule, not an error ("client C1 had no move
// at step 2000" on files check accepts and run runs): thread pools full of
// waiting requests, searched exhaustively with a window.
func TestStepCapWithManyMovesIsACut(t *testing.T) {
	const src = `scenarios:
  - id: pools
    title: {en: two full pools}
    horizon: 10m
    clients:
      - {name: C1, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 100ms}, threads: 64, requests: 1000, work: 10ms}
      - {name: C2, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 100ms}, threads: 64, requests: 1000, work: 10ms}
    explore: {steps: 2000, window: 1ms, faults: [{do: pause, max: 1s}, {do: crash}]}
    expect: [safe]
`
	f, err := scenario.Parse("pools.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range Strategies {
		res := search(t, &f.Scenarios[0], Options{Strategy: st, Runs: 3})
		if res.Cut == 0 {
			t.Errorf("%s: %d schedules, none cut at the step cap", st, res.Schedules)
		}
	}
}
