package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// "Check my lock": the card for the setup of one scenario (the loaded
// one, or one of a file the page sends), as visualizer report --file
// computes it (report.BuildSetup): the scenario's own locks and every
// catalog lock placed in its workload, each cell searched, and what to
// use instead. It is a session's long work, as a search is: one per
// session, setupAtOnce per server, its workers on the engine's slots in
// slices (slicer), its memory counted in the server's total while it runs
// (setupNeed), stopped by its time budget, by setup-cancel or by the
// session's end. A cell the budget stopped is ? and gives no advice
// (report.Instead's rule).
const (
	setupTime     = report.SetupLimit // the card's time budget (Options.SetupTime may make it shorter)
	setupAtOnce   = 2                 // cards computed on the server at once
	setupGrace    = 5 * time.Second   // past the budget, for the card's end (its cells are stopped at the budget)
	setupTryAgain = 10 * time.Millisecond
)

// checking counts the cards for a setup running on this process.
var checking atomic.Int32

// setupJob is a session's card for a setup: running, or done.
type setupJob struct {
	mu      sync.Mutex
	wire    *wireSetup
	rows    []*report.Row           // the card's rows, once its locks are probed
	cells   map[string]*report.Cell // the cells decided, by lock/column: what setup-open opens
	file    []catalogEntry          // the scenarios of the checked scenario's file, for the picker
	cancel  context.CancelFunc
	running bool
}

// setupScenario is the scenario a setup request checks: scenario
// r.Scenario of the file r.YAML (its only one when the file has one),
// or, without YAML, the loaded run's. file lists the file's scenarios
// for the picker when a counterexample is opened.
func (s *session) setupScenario(r *Request) (sc *scenario.Scenario, file []catalogEntry, err error) {
	if r.YAML == "" {
		if s.ls == nil {
			return nil, nil, coded("no-scenario", nil, "no scenario loaded: send load first")
		}
		return s.ls.Scenario(), s.file, nil
	}
	f, err := s.parseFile(r.YAML)
	if err != nil {
		return nil, nil, err
	}
	for i := range f.Scenarios {
		file = append(file, s.srv.entry(&f.Scenarios[i], false))
		if f.Scenarios[i].ID == r.Scenario {
			sc = &f.Scenarios[i]
		}
	}
	switch {
	case sc != nil:
	case len(f.Scenarios) == 1:
		sc = &f.Scenarios[0]
	default:
		ids := ""
		for i, e := range file {
			if i > 0 {
				ids += ", "
			}
			ids += e.ID
		}
		return nil, nil, coded("setup-which", map[string]any{"n": len(file), "ids": ids},
			"setup: the file has %d scenarios (%s): load the one whose lock to check", len(file), ids)
	}
	return sc, file, nil
}

// startSetup starts the card for a setup; it answers at once with the
// card (no rows yet); setup again once its rows are known, setup-cell
// for each cell decided, then setup-done.
func (s *session) startSetup(r *Request) (*Message, error) {
	if s.srv.opts.Servers != nil {
		return nil, coded("setup-real", nil, "setup: the card runs on embedded Redis only, not on real servers")
	}
	if s.setup.isRunning() {
		return nil, coded("setup-running", nil, "setup: a card is already being computed (send setup-cancel to stop it)")
	}
	sc, file, err := s.setupScenario(r)
	if err != nil {
		return nil, err
	}
	if err := s.srv.checkBudget(sc); err != nil {
		return nil, err
	}
	addr := s.conn.addr
	if err := s.srv.takeSearch(addr); err != nil {
		return nil, err
	}
	if checking.Add(1) > setupAtOnce {
		checking.Add(-1)
		s.srv.dropSearch(addr)
		return nil, coded("setup-busy", map[string]any{"max": setupAtOnce}, "setup: %d cards are being computed on this server; try again shortly", setupAtOnce)
	}
	workers := bulkSlots()
	need := setupNeed(sc, workers)
	if err := s.srv.reserve(need); err != nil {
		checking.Add(-1)
		s.srv.dropSearch(addr)
		return nil, err
	}
	limit := setupTime
	if d := s.srv.opts.SetupTime; d > 0 && d < limit {
		limit = d
	}
	ctx, cancel := s.workContext(limit + setupGrace) // it ends with the session too
	job := &setupJob{cells: map[string]*report.Cell{}, file: file, cancel: cancel, running: true,
		wire: &wireSetup{wireCard: *newWireCard(), Scenario: sc.ID, Limit: limit.String(), Workers: workers,
			Instead: []wireAlternative{}, Name: sc.ID + "-card.md", HTMLName: sc.ID + "-card.html"}}
	job.wire.Bound, job.wire.Legend = sim.Text{}, report.SetupLegend()
	s.setup = job
	first := &Message{Type: "setup", Setup: job.wire.clone()} // before its workers change it
	go func() {
		defer s.srv.dropSearch(addr)
		defer checking.Add(-1)
		defer s.srv.total.Add(-need)
		defer cancel()
		s.runSetup(ctx, job, sc, limit, workers, setupColumns(r.Faults, s.srv.opts.SetupColumns))
	}()
	return first, nil
}

// setupNeed is what a card for sc's setup may hold at once: each worker's
// cell, one schedule's world at a time (with Redlock's five masters, the
// most nodes a catalog lock places) and the states its search keeps (at
// most one per engine step of its budgets).
func setupNeed(sc *scenario.Scenario, workers int) int64 {
	nodes := int64(max(len(lesson.NodeNames(sc)), 5))
	world := baseCost + int64(len(sc.Data))*nodes*keyCost + int64(plannedThreads(sc))*threadCost
	return int64(workers) * (world + int64(report.SetupSteps+report.SetupRandom)*explore.StateBytes)
}

// reserve counts need in the server's total, or refuses it when the
// server's memory budget has no room beside what the sessions hold, idle
// ones evicted first.
func (srv *Server) reserve(need int64) error {
	lim := srv.limits
	srv.admitting.Lock()
	defer srv.admitting.Unlock()
	if srv.used()+need > lim.MaxMemory {
		srv.evictIdle(nil, need)
	}
	if used := srv.usedFresh(); used+need > lim.MaxMemory {
		return coded("server-memory", map[string]any{"need": mib(need), "max": mib(lim.MaxMemory), "used": mib(used)},
			"setup: the card needs about %s, and the server's memory budget of %s is in use by the sessions (about %s): try again later",
			mib(need), mib(lim.MaxMemory), mib(used))
	}
	srv.total.Add(need)
	return nil
}

// runSetup computes the card on the fault columns given (nil: every
// one), telling the session of its rows and of
// every cell, then hands it the end.
func (s *session) runSetup(ctx context.Context, job *setupJob, sc *scenario.Scenario, limit time.Duration, workers int, columns []string) {
	card, err := report.BuildSetup(ctx, sc, report.SetupOptions{
		File: sc.ID + ".yaml", Workers: workers, Limit: limit,
		Algorithms: s.srv.opts.SetupLocks, Columns: columns,
		Started: func(c *report.SetupCard) {
			job.mu.Lock()
			grid := &report.Card{Columns: c.Columns, Rows: c.Rows}
			job.wire.Rows, job.wire.Columns, job.wire.Setup = wireOf(grid), wireColumns(grid), c.Setup
			job.wire.Total = len(c.Rows) * len(c.Columns)
			job.rows = c.Rows
			job.mu.Unlock()
			s.deliver(ctx, func() *Message { return job.message("setup") })
		},
		Worker: func() (func() error, func()) { sl := &slicer{srv: s.srv, ctx: ctx}; return sl.yield, sl.release },
		Progress: func(lock string, c *report.Cell, done, total int) {
			job.mu.Lock()
			job.cells[lock+"/"+c.Column] = c
			var wc *wireCell
			for _, r := range job.rows {
				if r.Algorithm == lock {
					wc = wireCellOf(r, c) // its text says the row's bound
				}
			}
			for _, r := range job.wire.Rows {
				for i, x := range r.Cells {
					if wc != nil && r.Lock == lock && x.Column == c.Column {
						r.Cells[i] = wc
					}
				}
			}
			job.wire.Done = done
			job.mu.Unlock()
			if wc == nil || c.Kind == report.Unsearched {
				return // the cells a stop leaves come at once: setup-done carries them
			}
			msg := &Message{Type: "setup-cell", Cell: wc, Done: done, Total: total}
			s.do(func() { // dropped for a session busy at that moment: setup-done carries every cell
				if s.conn != nil {
					s.conn.enqueue(msg)
				}
			})
		},
	})
	job.mu.Lock()
	job.finish(card, err, limit)
	job.mu.Unlock()
	s.deliver(context.Background(), func() *Message { return job.message("setup-done") }) // its end is delivered whatever stopped the card
}

// message is the card as it stands, in a message of type typ.
func (job *setupJob) message(typ string) *Message {
	job.mu.Lock()
	defer job.mu.Unlock()
	if !job.wire.Running {
		typ = "setup-done"
	}
	return &Message{Type: typ, Setup: job.wire.clone()}
}

// deliver hands the message build makes, when the session takes it, to
// the session's socket, trying again while the session is busy: a card's
// rows and its end must not be dropped as a cell may be. It gives up when
// the session ends or ctx does.
func (s *session) deliver(ctx context.Context, build func() *Message) {
	done := ctx.Done()
	for !s.do(func() {
		if s.conn != nil {
			s.conn.enqueue(build())
		}
	}) {
		select {
		case <-s.quit:
			return
		case <-done:
			return
		case <-time.After(setupTryAgain):
		}
	}
}

// cancelSetup stops the session's card, if one runs; its setup-done
// follows, its cells not searched said so.
func (s *session) cancelSetup() {
	if s.setup.isRunning() {
		s.setup.cancel()
	}
}

// isRunning says whether the card is still being computed (false for no
// card).
func (job *setupJob) isRunning() bool {
	if job == nil {
		return false
	}
	job.mu.Lock()
	defer job.mu.Unlock()
	return job.running
}

// openSetupCell loads a cell's counterexample of the session's card (or
// the refused write a fencing ✓ rests on) as the session's run, at its
// end, as report-open does for the catalog's card.
func (s *session) openSetupCell(lock, column string) error {
	var rec *scenario.Scenario
	var file []catalogEntry
	if job := s.setup; job != nil {
		job.mu.Lock()
		if c := job.cells[lock+"/"+column]; c != nil {
			rec = c.Counterexample
			if rec == nil {
				rec = c.Example
			}
		}
		file = job.file
		job.mu.Unlock()
	}
	if rec == nil {
		lock, column = short(lock), short(column)
		return coded("setup-cell", map[string]any{"lock": lock, "column": column},
			"setup: the cell %s/%s has no schedule to open (no card, not decided yet, or nothing found)", lock, column)
	}
	return s.openAtEnd(rec, file)
}
