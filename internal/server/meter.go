package server

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
)

// The estimate (budget.go) counts what each session's world holds, and it
// follows the live heap (TestCostCalibration, TestTheEstimateFollowsTheLiveHeap);
// the process's RSS is the live heap and the garbage the collector has not
// yet collected, which at GOGC=400 may be four times as much again. Two
// things keep the process near its budget: `visualizer serve` sets the
// collector's soft limit from the budget (SoftMemoryLimit), and with
// Options.MeasureMemory the server's budget counts, beside the estimate,
// the memory the process measures live above what it held when it was
// made (memory the estimate does not see: buffers, messages in flight, an
// undercount), whichever is more.

// SoftMemoryLimit is the collector's soft limit (debug.SetMemoryLimit) for
// a server with these limits: the sessions' budget and a quarter more, for
// the process's own memory and for garbage between two collections (with
// none, a server at its budget would collect without pause).
func SoftMemoryLimit(l Limits) int64 {
	b := l.withDefaults().MaxMemory
	return b + b/4
}

// memStats are the process's memory figures from the runtime: live is the
// heap marked live by the last collection and the goroutines' stacks, held
// what the runtime holds from the system and has not given back (what its
// soft limit counts).
type memStats struct{ live, held int64 }

var memSamples = []string{"/gc/heap/live:bytes", "/memory/classes/heap/stacks:bytes",
	"/memory/classes/total:bytes", "/memory/classes/heap/released:bytes"}

// readMem reads the runtime's memory figures (no collection, no pause).
func readMem() memStats {
	s := make([]metrics.Sample, len(memSamples))
	for i, n := range memSamples {
		s[i].Name = n
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	return memStats{live: v(0) + v(1), held: v(2) - v(3)}
}

// rss is the process's resident set from /proc/self/status, 0 where there
// is none.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range bytes.Split(b, []byte("\n")) {
		if f := bytes.Fields(l); len(f) == 3 && string(f[0]) == "VmRSS:" {
			kib, _ := strconv.ParseInt(string(f[1]), 10, 64)
			return kib << 10
		}
	}
	return 0
}

// meter is the server's measured figure: the process's live memory above
// its baseline, what it held live once made.
type meter struct {
	base   int64
	mu     sync.Mutex
	lastGC time.Time
}

// start records the baseline, after a collection.
func (m *meter) start() {
	runtime.GC()
	m.base = readMem().live
}

// measured is the live memory above the baseline as of the last
// collection. When that is over limit, the last collection may be old (the
// garbage of an evicted session, a run stepped back, is still counted): it
// collects once, at most once a second, and measures again.
func (m *meter) measured(limit int64) int64 {
	n := readMem().live - m.base
	if n <= limit {
		return n
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Since(m.lastGC) < time.Second {
		return readMem().live - m.base
	}
	runtime.GC()
	m.lastGC = time.Now()
	return readMem().live - m.base
}

// used is the memory the server's budget counts: the sessions' estimate,
// or, measuring (Options.MeasureMemory), the live memory measured above
// the baseline when that is more.
func (s *Server) used() int64 {
	t := s.total.Load()
	if !s.opts.MeasureMemory {
		return t
	}
	return max(t, s.meter.measured(s.limits.MaxMemory))
}

// usedNow is used as of the last collection, never collecting (/healthz).
func (s *Server) usedNow() int64 {
	t := s.total.Load()
	if !s.opts.MeasureMemory {
		return t
	}
	return max(t, readMem().live-s.meter.base)
}

// budgetYield holds a run as it is built or stepped to a session's memory
// budget between recorded faults (lesson.Config.Yield): a share link of
// 10,000 faults at one step is stopped at the budget, not after them all.
func (s *Server) budgetYield(r *lesson.Run) error {
	if c := runCost(r); c > s.limits.MaxSessionMemory {
		events, threads := r.Footprint()
		return coded("memory-run", map[string]any{"step": r.World.Steps(), "need": mib(c), "max": mib(s.limits.MaxSessionMemory)},
			"the run stopped at step %d: it holds %d events and %d client threads, about %s, over a session's memory budget of %s",
			r.World.Steps(), events, threads, mib(c), mib(s.limits.MaxSessionMemory))
	}
	return nil
}
