package sim_test

import (
	"testing"
	"time"
)

// cpuClock adds up the process's CPU time (every thread's: the garbage
// collector's workers too) over the timed parts of a benchmark, and
// reports it per operation as cpu-ns/op beside the wall-clock ns/op.
//
// On a machine shared with other work, ns/op counts the time the
// benchmark waited for a core as well as the time it ran, and moves with
// the neighbours' load by more than the differences measured here; CPU
// time counts only what the benchmark itself used, and moves much less.
// It also counts the collector's work on the other core, which the wall
// clock hides while a core is idle.
type cpuClock struct {
	used, from time.Duration
	ok         bool
}

func (c *cpuClock) start() { c.from, c.ok = processCPU() }

func (c *cpuClock) stop() {
	if now, ok := processCPU(); ok && c.ok {
		c.used += now - c.from
	}
}

// report gives the CPU time per operation, when it was measured.
func (c *cpuClock) report(b *testing.B) {
	if c.ok && b.N > 0 {
		b.ReportMetric(float64(c.used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
