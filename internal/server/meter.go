package server

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
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
	mu     sync.Mutex   // held by the meter's collection, one at a time
	lastGC atomic.Int64 // when the meter last collected (UnixNano)
}

// start records the baseline, after a collection.
func (m *meter) start() {
	runtime.GC()
	m.base = readMem().live
}

// A figure over the limit may be old (the garbage of an evicted session,
// a run stepped back, is counted until a collection), so the meter
// collects, at most once a second. Only a request about to be refused
// waits for that collection (fresh): every other request reads the figure
// of the last one (measured) and, over the limit, starts one in the
// background. Every request once waited: at the budget, with the live heap
// above it, a session's step (account) ran a whole collection of half a
// gigabyte, 1.3 s on a loaded machine, and the other sessions' steps waited
// for it on the meter's lock: a wait of the storm's step tail at the budget
// (issue 36; TestAStepDoesNotWaitForTheMetersCollection; most of that tail
// is the runtime's own collections at its soft limit: docs/performance.md).

// stale says the meter's last collection is more than a second old.
func (m *meter) stale() bool {
	return time.Since(time.Unix(0, m.lastGC.Load())) >= time.Second
}

// collect collects unless the meter did within the last second; m.mu held.
func (m *meter) collect() {
	if m.stale() {
		runtime.GC()
		m.lastGC.Store(time.Now().UnixNano())
	}
}

// measured is the live memory above the baseline as of the last
// collection, never waiting; over limit, it starts a collection in the
// background when the meter's last is more than a second old.
func (m *meter) measured(limit int64) int64 {
	n := readMem().live - m.base
	if n > limit && m.stale() && m.mu.TryLock() {
		go func() {
			defer m.mu.Unlock()
			m.collect()
		}()
	}
	return n
}

// fresh is measured for a refusal: over limit, it waits for a collection
// (the meter's running one, or one of its own when the last is more than a
// second old) and measures again.
func (m *meter) fresh(limit int64) int64 {
	if n := readMem().live - m.base; n <= limit {
		return n
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.collect()
	return readMem().live - m.base
}

// used is the memory the server's budget counts: the sessions' estimate,
// or, measuring (Options.MeasureMemory), the live memory measured above
// the baseline when that is more. It never waits for a collection.
func (s *Server) used() int64 {
	t := s.total.Load()
	if !s.opts.MeasureMemory {
		return t
	}
	return max(t, s.meter.measured(s.limits.MaxMemory))
}

// usedFresh is used for a refusal: the measured figure of a collection at
// most a second old when it is over the budget (meter.fresh). Only a
// request about to be refused calls it.
func (s *Server) usedFresh() int64 {
	t := s.total.Load()
	if !s.opts.MeasureMemory || t > s.limits.MaxMemory {
		return t
	}
	return max(t, s.meter.fresh(s.limits.MaxMemory))
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
