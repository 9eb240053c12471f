package report

import (
	"context"
	"runtime"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// BenchmarkCard computes the whole card from a cold start (no cache):
// every probe, every cell's search and shrinking, on every CPU. The
// figure goes to docs/performance.md with the machine's load average:
//
//	go test ./internal/report -run '^$' -bench Card -benchtime 1x
func BenchmarkCard(b *testing.B) {
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		card, err := Build(context.Background(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		cells := 0
		for _, r := range card.Rows {
			cells += len(r.Cells)
		}
		b.ReportMetric(float64(cells), "cells")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "MiB-allocated")
	}
}

// BenchmarkSetupCard computes the card for a user's setup as visualizer
// report --file does, with two workers: labs/your-lock.yaml's
// GET-compare-DEL scenario (three clients, a 20s horizon), its own lock
// and every catalog lock, every column. It must finish in under a minute
// on a 2-core machine (README's Performance); past SetupLimit (55 s) the
// cells not reached are counted as unsearched:
//
//	go test ./internal/report -run '^$' -bench SetupCard -benchtime 1x
func BenchmarkSetupCard(b *testing.B) {
	f, err := scenario.Load("../../labs/your-lock.yaml")
	if err != nil {
		b.Fatal(err)
	}
	sc, _ := f.Find("your-lock-get-compare-del")
	for b.Loop() {
		// Past SetupLimit the card comes back with the cells it did not
		// reach marked ?: counted below, not a failure of the benchmark.
		card, err := BuildSetup(context.Background(), sc, SetupOptions{Workers: 2, Limit: SetupLimit})
		if card == nil {
			b.Fatal(err)
		}
		cells, open := 0, 0
		for _, r := range card.Rows {
			cells += len(r.Cells)
			for _, c := range r.Cells {
				if c.Kind == Unsearched {
					open++
				}
			}
		}
		b.ReportMetric(float64(cells), "cells")
		b.ReportMetric(float64(open), "unsearched")
	}
}
