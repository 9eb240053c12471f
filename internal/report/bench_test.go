package report

import (
	"context"
	"runtime"
	"testing"
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
