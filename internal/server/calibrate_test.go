package server

import (
	"os"
	"runtime"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// estimateFactor bounds a run's heap by its estimate: measured 0.35 to
// 0.96 (0.7 over all runs), the rest of it room for a noisy measurement
// (small runs' heap is counted in whole pages). With a live thread estimated at 4 KiB
// (its stack alone takes 8 KiB) the heavy run measured 1.9.
const estimateFactor = 1.5

// TestCostCalibration measures what runs hold on the heap against cost's
// estimate: the built-in lessons to their end, and the heavy scenario
// (16 pools of 64 threads) to 2,000 and 8,000 steps, with 30 requests a
// client (480 threads live) to 500 and 4,000 steps, and two clients
// retrying for 8,000 steps (busyYAML: 17,000 events on one node). Each
// run is held while the heap is measured after a GC. Set LOCKSTEP_CALIBRATE=1 to
// print the table (the constants in budget.go come from it); the test
// itself holds every run's heap within estimateFactor of its estimate.
func TestCostCalibration(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's heap is not a normal build's (scripts/test.sh runs this test without it)")
	}
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	heavy, err := scenario.Parse("heavy.yaml", []byte(heavyYAML(100)))
	if err != nil {
		t.Fatal(err)
	}
	heavy30, err := scenario.Parse("heavy30.yaml", []byte(heavyYAML(30)))
	if err != nil {
		t.Fatal(err)
	}
	busy, err := scenario.Parse("busy.yaml", []byte(busyYAML))
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		name  string
		sc    *scenario.Scenario
		steps int
	}
	var runs []run
	for i := range f.Scenarios {
		runs = append(runs, run{f.Scenarios[i].ID, &f.Scenarios[i], 50000})
	}
	runs = append(runs, run{"heavy-2000", &heavy.Scenarios[0], 2000}, run{"heavy-8000", &heavy.Scenarios[0], 8000},
		run{"heavy30-500", &heavy30.Scenarios[0], 500}, run{"heavy30-4000", &heavy30.Scenarios[0], 4000},
		run{"busy-8000", &busy.Scenarios[0], 8000})
	var sumHeap, sumEst int64
	for _, r := range runs {
		before := heapNow()
		ls, err := lesson.NewSession(r.sc, lesson.Config{Seed: r.sc.Seed, Servers: embedded.Servers{}})
		if err != nil {
			t.Fatal(err)
		}
		if err := ls.Seek(r.steps); err != nil {
			t.Fatal(err)
		}
		grew := heapNow() - before
		est := cost(ls)
		events, threads := ls.Footprint()
		if os.Getenv("LOCKSTEP_CALIBRATE") != "" {
			t.Logf("%-32s %d nodes %6d events %5d threads: heap %7d KiB, estimate %7d KiB (%.2f)", r.name, len(lesson.NodeNames(r.sc)), events, threads, grew>>10, est>>10, float64(grew)/float64(est))
		}
		if float64(grew) > estimateFactor*float64(est) {
			t.Errorf("%s: the heap grew by %d KiB, over %.1f times its estimate of %d KiB", r.name, grew>>10, estimateFactor, est>>10)
		}
		sumHeap, sumEst = sumHeap+grew, sumEst+est
		ls.Close()
		runtime.KeepAlive(ls)
	}
	t.Logf("all runs: heap %d KiB, estimate %d KiB (%.2f)", sumHeap>>10, sumEst>>10, float64(sumHeap)/float64(sumEst))
}
