package server

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// What a session's world costs in memory, estimated from what it holds.
// Calibrated against the heap and the goroutine stacks after a GC, each
// run held (TestCostCalibration): a world about 150 to 380 KiB, an event
// about 0.4 to 0.6 KiB with one node and 2 to 2.4 KiB with Redlock's five
// (its key states on each), and in the heavy scenario (16 pools of 64
// threads) a live thread about 14 KiB with 1,600 live and 19 KiB with 480
// (its stack alone about 8 KiB). Each constant is the top of what was
// measured, so that the estimate is at or above what a run holds: the
// heap is 0.35 to 0.96 of it (0.7 over all runs).
const (
	baseCost      = 384 << 10 // a world: its nodes, clients, checker, miniredis
	eventCost     = 256       // one logged event, its facts and words
	eventNodeCost = 448       // one logged event's key states on one node
	threadCost    = 20 << 10  // one live client thread: a coroutine, its stack, its go-redis client
	keyCost       = 512       // one key of a scenario's data, on one node and in the init event
)

// Slices of engine work: a long seek or play runs in slices of at most
// sliceSteps steps or sliceTime, each holding one of the server's engine
// slots (one per CPU), so that other sessions' requests wait for a slice,
// never for a whole seek. Work of at most shortSteps steps is short work.
const (
	sliceSteps = 256
	sliceTime  = 4 * time.Millisecond
	shortSteps = 8
)

// cost estimates the memory a session's world holds now.
func cost(ls *lesson.Session) int64 {
	events, threads := ls.Footprint()
	return costOf(ls.Scenario(), events, threads)
}

// runCost estimates the memory a run holds now.
func runCost(r *lesson.Run) int64 {
	events, threads := r.Footprint()
	return costOf(r.Scenario, events, threads)
}

// costOf estimates the memory a world of sc holds with that many events
// logged and client threads live.
func costOf(sc *scenario.Scenario, events, threads int) int64 {
	perEvent := eventCost + int64(len(lesson.NodeNames(sc)))*eventNodeCost
	return baseCost + dataCost(sc) + int64(events)*perEvent + int64(threads)*threadCost
}

// dataCost is what a scenario's data costs: its keys, written to every
// node.
func dataCost(sc *scenario.Scenario) int64 {
	return int64(len(sc.Data)) * int64(len(lesson.NodeNames(sc))) * keyCost
}

// plannedThreads is the most client threads a scenario can hold at once:
// a client's main thread, and with a thread pool one thread per request
// (each waits for a pool thread from the start).
func plannedThreads(sc *scenario.Scenario) int {
	n := 0
	for _, c := range sc.Clients {
		n++
		if c.Threads > 0 {
			n += max(c.Requests, 1)
		}
	}
	return n
}

// mib writes a byte count in MiB for messages.
func mib(n int64) string { return fmt.Sprintf("%d MiB", (n+(1<<20)-1)>>20) }

// checkBudget refuses, before it is built, a scenario whose threads or
// data alone would exceed a session's memory budget.
func (s *Server) checkBudget(sc *scenario.Scenario) error {
	th := plannedThreads(sc)
	if need := baseCost + int64(th)*threadCost; need > s.limits.MaxSessionMemory {
		return coded("memory-threads", map[string]any{"id": sc.ID, "n": th, "need": mib(need), "max": mib(s.limits.MaxSessionMemory)},
			"scenario %s would hold up to %d client threads at once (a thread per request in a thread pool), about %s: over a session's memory budget of %s (fewer requests or no threads: fits)",
			sc.ID, th, mib(need), mib(s.limits.MaxSessionMemory))
	}
	if need := baseCost + dataCost(sc); need > s.limits.MaxSessionMemory {
		return coded("memory-data", map[string]any{"id": sc.ID, "n": len(sc.Data), "nodes": len(lesson.NodeNames(sc)), "need": mib(need), "max": mib(s.limits.MaxSessionMemory)},
			"scenario %s writes %d data keys to each of its %d nodes, about %s: over a session's memory budget of %s",
			sc.ID, len(sc.Data), len(lesson.NodeNames(sc)), mib(need), mib(s.limits.MaxSessionMemory))
	}
	return nil
}

// Engine work is short or long. Short work (a step, a few steps, a fault,
// a client's step) runs holding one of the engine slots (turn). Long work
// (every slice of a seek, a load, a reset, a chapters run, a step of many)
// holds one of the bulk slots as well (bulkTurn), and there is one bulk
// slot fewer than engine slots: however many sessions seek at once, one
// CPU's slot is always left to the short requests, which wait for other
// short work only. Short work never takes a bulk slot, not even in a slice
// after its first (stepsOf): there it would wait behind every session's
// long work queued for it.

// A hold is one goroutine's place on the engine's slots (a session's
// goroutine): what it holds now, so that it can give them back while it
// waits for something other than the CPU (away).
type hold struct {
	srv       *Server
	cpu, bulk bool
}

// turn runs f, short work, holding one of the server's engine slots.
func (h *hold) turn(f func()) {
	h.srv.cpu <- struct{}{}
	h.cpu = true
	defer func() { h.cpu = false; <-h.srv.cpu }()
	f()
}

// bulkTurn runs f, a slice of long work, holding one of the bulk slots
// and one of the engine slots.
func (h *hold) bulkTurn(f func()) {
	h.srv.bulk <- struct{}{}
	h.bulk = true
	defer func() { h.bulk = false; <-h.srv.bulk }()
	h.turn(f)
}

// away runs f, a wait for something other than the CPU (a real server's
// clock), with the slots held given back meanwhile, and takes them again
// after it, in the order turn and bulkTurn take them.
func (h *hold) away(f func()) {
	cpu, bulk := h.cpu, h.bulk
	if cpu {
		h.cpu = false
		<-h.srv.cpu
	}
	if bulk {
		h.bulk = false
		<-h.srv.bulk
	}
	defer func() {
		if bulk {
			h.srv.bulk <- struct{}{}
			h.bulk = true
		}
		if cpu {
			h.srv.cpu <- struct{}{}
			h.cpu = true
		}
	}()
	f()
}

// workContext is the context of a session's long work that runs beside
// its goroutine's slots (a comparison, a recording's replay): it ends after
// d, or when the session ends.
func (s *session) workContext(d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	go func() {
		select {
		case <-s.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// turn and bulkTurn run f on the session's hold (the session's goroutine
// only).
func (s *session) turn(f func())     { s.hold.turn(f) }
func (s *session) bulkTurn(f func()) { s.hold.bulkTurn(f) }

// servers is where the session's runs are placed: the server's real
// servers, with their clock's waits made away from the engine's slots,
// or embedded Redis.
func (s *session) servers() lesson.Servers {
	if s.srv.opts.Servers == nil {
		return embedded.Servers{}
	}
	return awayServers{Servers: s.srv.opts.Servers, h: &s.hold}
}

// awayServers places runs with their clock's waits made away from the
// engine's slots: a real-Redis session waiting for Redis' clock holds no
// slot another session could use.
type awayServers struct {
	lesson.Servers
	h *hold
}

func (a awayServers) Place(sc *scenario.Scenario, nodes []string, seed int64) ([]sim.Backend, sim.Pacer, error) {
	b, p, err := a.Servers.Place(sc, nodes, seed)
	if p != nil {
		p = awayPacer{Pacer: p, h: a.h}
	}
	return b, p, err
}

type awayPacer struct {
	sim.Pacer
	h *hold
}

func (p awayPacer) Wait(t time.Duration) (got time.Duration) {
	p.h.away(func() { got = p.Pacer.Wait(t) })
	return got
}

// account records what the session's world costs now and holds it to the
// session's budget and the server's. Over the server's, it first evicts
// idle sessions (those with no socket), the longest idle first.
func (s *session) account() error {
	select {
	case <-s.quit:
		s.setCost(0)
		return coded("evicted", nil, "this session was evicted to free memory for others: reload the page")
	default:
	}
	if s.ls == nil {
		s.setCost(s.shareCost)
		return nil
	}
	c := cost(s.ls)
	s.setCost(max(c, s.reserve) + s.shareCost) // the server counts what the run may come to hold (admit), and a class's shared run
	lim := s.srv.limits
	if c > lim.MaxSessionMemory {
		events, threads := s.ls.Footprint()
		return coded("memory-run", map[string]any{"step": s.ls.Cursor(), "need": mib(c), "max": mib(lim.MaxSessionMemory)},
			"the run stopped at step %d: it holds %d events and %d client threads, about %s, over a session's memory budget of %s",
			s.ls.Cursor(), events, threads, mib(c), mib(lim.MaxSessionMemory))
	}
	if s.srv.used() > lim.MaxMemory {
		s.srv.evictIdle(s, 0)
	}
	if s.srv.used() > lim.MaxMemory {
		return s.overBudget() // the sessions holding the most stop first (fair.go)
	}
	return nil
}

// admit refuses, before it is built, a run the server's memory budget has
// no room for: what its threads and data would take at most (at most a
// session's budget) beside what the other sessions hold, idle ones evicted
// first. Without it, every session could load a run first and find the
// budget spent after.
func (s *session) admit(sc *scenario.Scenario) error {
	lim := s.srv.limits
	need := min(baseCost+dataCost(sc)+int64(plannedThreads(sc))*threadCost, lim.MaxSessionMemory)
	// One load is admitted at a time, its reserve counted at once: loads
	// at once must not all find the same room.
	s.srv.admitting.Lock()
	defer s.srv.admitting.Unlock()
	others := func() int64 { return s.srv.used() - s.cost.Load() }
	if others()+need > lim.MaxMemory {
		s.srv.evictIdle(s, need-s.cost.Load())
	}
	if o := s.srv.usedFresh() - s.cost.Load(); o+need > lim.MaxMemory {
		return coded("server-memory", map[string]any{"need": mib(need), "max": mib(lim.MaxMemory), "used": mib(o)},
			"scenario %s needs about %s, and the server's memory budget of %s is in use by other sessions (about %s): try again later, or a smaller scenario",
			sc.ID, mib(need), mib(lim.MaxMemory), mib(o))
	}
	s.reserve = need
	s.setCost(max(s.cost.Load(), need))
	return nil
}

// searchNeed is what a search of sc may hold: one schedule's world at a
// time, its threads and data at most as a load counts them (a search's
// runs keep no log), and its state set, bounded to as many states as fit
// in what is left of a session's memory budget (at least one, at most
// explore.DefaultStates). states is that bound, for explore.Options.
func (s *Server) searchNeed(sc *scenario.Scenario) (need int64, states int) {
	world := baseCost + dataCost(sc) + int64(plannedThreads(sc))*threadCost
	n := min(max((s.limits.MaxSessionMemory-world)/explore.StateBytes, 1), explore.DefaultStates)
	return world + n*explore.StateBytes, int(n)
}

// reserveSearch counts, before it starts, what a search of sc may hold
// in the server's total, or refuses it when the server's memory budget
// has no room for it beside what the sessions hold, idle ones evicted
// first. It returns the states the search may keep; releaseSearch gives
// the reservation back.
func (s *session) reserveSearch(sc *scenario.Scenario) (states int, err error) {
	lim := s.srv.limits
	need, states := s.srv.searchNeed(sc)
	s.srv.admitting.Lock() // as a load is admitted: searches at once must not all find the same room
	defer s.srv.admitting.Unlock()
	if s.srv.used()+need > lim.MaxMemory {
		s.srv.evictIdle(s, need)
	}
	if used := s.srv.usedFresh(); used+need > lim.MaxMemory {
		return 0, coded("server-memory", map[string]any{"need": mib(need), "max": mib(lim.MaxMemory), "used": mib(used)},
			"explore: the search needs about %s (a schedule's world and the states it counts), and the server's memory budget of %s is in use by the sessions (about %s): try again later",
			mib(need), mib(lim.MaxMemory), mib(used))
	}
	s.searchCost.Store(need)
	s.srv.total.Add(need)
	return states, nil
}

// releaseSearch takes the session's search reservation, if any, off the
// server's total. It may be called more than once (the search's end, an
// eviction): the first call releases it.
func (s *session) releaseSearch() {
	s.srv.total.Add(-s.searchCost.Swap(0))
}

// workCost is what a session's long work outside its world holds (the runs
// of a comparison), counted in the server's total while it runs.
type workCost struct {
	srv  *Server
	cost int64
}

// set records the work's cost in the server's total.
func (w *workCost) set(c int64) {
	w.srv.total.Add(c - w.cost)
	w.cost = c
}

// check records what runs hold and holds them to a session's memory budget
// and the server's.
func (w *workCost) check(runs []*lesson.Run) error {
	var c int64
	for _, r := range runs {
		c += runCost(r)
	}
	w.set(c)
	lim := w.srv.limits
	if c > lim.MaxSessionMemory {
		return coded("compare-memory", map[string]any{"need": mib(c), "max": mib(lim.MaxSessionMemory)},
			"compare: the runs would hold more than %s, over a session's memory budget of %s: compare them with visualizer compare", mib(c), mib(lim.MaxSessionMemory))
	}
	if o := w.srv.used() - c; o+c > lim.MaxMemory && w.srv.usedFresh() > lim.MaxMemory {
		return coded("server-memory", map[string]any{"need": mib(c), "max": mib(lim.MaxMemory), "used": mib(o)},
			"compare: the runs need about %s, and the server's memory budget of %s is in use by other sessions (about %s): try again later",
			mib(c), mib(lim.MaxMemory), mib(o))
	}
	return nil
}

// setCost records the session's cost in its own count and the server's.
func (s *session) setCost(c int64) {
	old := s.cost.Swap(c)
	s.srv.total.Add(c - old)
}

// evictIdle ends sessions with no socket, the longest idle first, until
// the server is back under its memory budget. It does not wait for them
// (an idle session may itself be evicting): each releases its world as
// its goroutine ends, and its cost no longer counts from now on.
func (s *Server) evictIdle(except *session, need int64) {
	s.mu.Lock()
	var idle []*session
	for _, sess := range s.sessions {
		if sess != except && sess.open.Load() == 0 {
			idle = append(idle, sess)
		}
	}
	slices.SortFunc(idle, func(a, b *session) int { return cmp.Compare(a.used.Load(), b.used.Load()) })
	gone := 0
	for _, sess := range idle {
		if s.total.Load()+need <= s.limits.MaxMemory {
			break
		}
		s.removeLocked(sess)
		sess.end()
		sess.setCost(0)      // its world is released as its goroutine ends; it adds no more (see account)
		sess.releaseSearch() // its search, cancelled as its goroutine ends, too
		gone++
	}
	s.mu.Unlock()
	if gone > 0 {
		s.opts.Logf("memory: evicted %d idle sessions to stay under the budget of %s", gone, mib(s.limits.MaxMemory))
	}
}

// engineSlots is how many sessions may run engine work at once: one per
// CPU.
func engineSlots() int { return max(runtime.GOMAXPROCS(0), 1) }

// bulkSlots is how many sessions may run long work at once: one per CPU
// but one (one on a single CPU).
func bulkSlots() int { return max(engineSlots()-1, 1) }
