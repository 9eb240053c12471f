package report

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The kinds of cell.
const (
	Fails    = "fails"      // ✗: a schedule breaks the lock; its shrunk counterexample is kept
	Holds    = "holds"      // ✓: the exhaustive search covered every schedule within the bound, none breaks it
	NotFound = "none-found" // ~: no schedule found that breaks it, the search not complete (not a proof)
	// Unsearched: ?: the card's time limit (or a cancel) stopped the search
	// before the end of its budget, nothing found: the cell says nothing,
	// and no advice is read from it.
	Unsearched = "unsearched"
	NA         = "n/a" // the fault cannot apply to this lock
)

// The bounds of each cell's search: the exhaustive search up to
// ExhaustiveRuns schedules, and when it does not cover them all and found
// nothing, the random walk (seed 0) up to RandomSteps engine steps in all.
// Both are counts, never times, so that the card is the same on every
// machine; the deadline of Options only stops a card that runs too long,
// and a cell it stopped says so.
const (
	ExhaustiveSteps = 100000 // engine steps of the exhaustive search, all schedules together
	RandomSteps     = 40000  // engine steps of the random walk that follows it
	ScheduleSteps   = 2000   // engine steps per schedule (explore's default)
)

// Cell is what the search found for one lock under one fault.
type Cell struct {
	Column string `json:"column"`
	Kind   string `json:"kind"` // Fails, Holds, NotFound, Unsearched or NA
	// Verdict is the violation found (Fails).
	Verdict string `json:"verdict,omitempty"`
	// Verdicts are what the counterexample replays to (Fails).
	Verdicts  []string `json:"verdicts,omitempty"`
	Strategy  string   `json:"strategy,omitempty"`  // the search that decided the cell
	Schedules int      `json:"schedules,omitempty"` // schedules it ran
	FoundAt   int      `json:"found_at,omitempty"`  // Fails: the schedule that broke the lock
	Steps     int      `json:"steps,omitempty"`     // engine steps, both searches
	// Counts are, for an exhaustive search, the schedules per verdict list.
	Counts map[string]int `json:"counts,omitempty"`
	// Why says why a fault does not apply (NA), or why a search stopped
	// short (the card's deadline).
	Why *sim.Text `json:"why,omitempty"`
	// Stopped: the card's time limit or a cancel cut the search short; the
	// cell is then Unsearched whatever it might have found.
	Stopped bool `json:"stopped,omitempty"`
	// Story says in plain words what the counterexample is (Fails).
	Story *sim.Text `json:"story,omitempty"`
	// Counterexample is the shrunk schedule that breaks the lock, as a
	// scenario that replays to Verdicts (Fails).
	Counterexample *scenario.Scenario `json:"counterexample,omitempty"`
	// Example, for a lock judged at its storage, is a schedule in which two
	// clients were inside at once and the storage refused the late write:
	// what its ✓ or ~ rests on.
	Example *scenario.Scenario `json:"example,omitempty"`
	// Runs, for a live row's cell (Broke, Unbroken), are the real-time
	// runs it was decided by, Broken how many of them broke the lock,
	// Tally how they ended, and Placement the column's fault as the runs
	// placed it, in words.
	Runs      int       `json:"runs,omitempty"`
	Broken    int       `json:"broken,omitempty"`
	Tally     []Tally   `json:"tally,omitempty"`
	Placement *sim.Text `json:"placement,omitempty"`
}

// Row is one lock's line of the card.
type Row struct {
	Algorithm string     `json:"algorithm"`
	Catalog   int        `json:"catalog"` // the row of the lesson catalog
	Title     string     `json:"title"`
	Probe     *Probe     `json:"probe"`
	Needs     []sim.Text `json:"needs"`
	// Storage: the lock is judged at its storage (it hands out fencing
	// tokens): two clients inside at once is what the storage guards
	// against, so only what reaches the storage counts.
	Storage bool     `json:"storage,omitempty"`
	Cells   []*Cell  `json:"cells"`
	Advice  sim.Text `json:"advice"`
	// Yours marks, on the card for a user's setup, a lock their scenario
	// runs; Bound is what every search of the row covered there (the
	// user's clients, requests, lease and work), said beside each ✓ and ~.
	Yours bool      `json:"yours,omitempty"`
	Bound *sim.Text `json:"bound,omitempty"`
	// Variant, for a live row, names the write its runs make ("Put",
	// "Txn If IsOwner"): one lock may have a row for each. Sample says
	// where and when its runs ran.
	Variant string  `json:"variant,omitempty"`
	Sample  *Sample `json:"sample,omitempty"`
}

// Card is the report card: every lock of the registry against every
// column.
type Card struct {
	Columns []Column `json:"columns"`
	Rows    []*Row   `json:"rows"`
	// Live are the rows of locks on a live server (etcd, ZooKeeper),
	// each cell a sample of real-time runs (Broke, Unbroken), not a
	// search: Build does not compute them (internal/livecard does), and
	// a stored card keeps them with their Sample.
	Live []*Row `json:"live,omitempty"`
	// Unsearched, when the time limit stopped some cells, says how many
	// and what the limit was (nil: every cell was searched to its end).
	Unsearched *sim.Text `json:"unsearched,omitempty"`
}

// CardCPU is the processor time a whole card is given by default: about
// ten times what it takes on one core of an idle machine (49-70 s with
// the collector set as visualizer report sets it, docs/performance.md),
// so that a loaded machine still finishes it.
const CardCPU = 20 * time.Minute

// DefaultLimit is the wall-clock limit of a card searched by workers
// workers at once: CardCPU shared among them, and never under 5 minutes.
func DefaultLimit(workers int) time.Duration {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(5*time.Minute, CardCPU/time.Duration(workers))
}

// Options bound a card.
type Options struct {
	// Workers run cells at once (default: the number of CPUs).
	Workers int
	// Limit stops the card after this long (0: only ctx stops it); the
	// cells it stopped are Unsearched and the card says so, with the limit.
	Limit time.Duration
	// Algorithms limits the card to these locks (nil: every one).
	Algorithms []string
	// Columns limits the card to these columns (nil: every one).
	Columns []string
	// Progress, when set, is called after every cell, from the goroutine
	// that ran it, with the cell and how many are done of how many.
	Progress func(algorithm string, c *Cell, done, total int)
	// Started, when set, is called once every lock has been probed and
	// before any cell is searched, with the card's rows (their cells
	// still empty).
	Started func(*Card)
	// Worker, when set, is called by each worker as it starts; it gives
	// the yield function that worker's searches call every few engine
	// steps (explore.Options.Yield: the caller may hand the CPU to other
	// work there, or stop the card by returning an error), and release,
	// called when the worker ends.
	Worker func() (yield func() error, release func())
}

// Build computes the card. It runs each lock alone first (its probe),
// then every cell, Workers at a time. When ctx ends, the cells not yet
// done are NotFound and Stopped; the card is returned with ctx's error.
func Build(ctx context.Context, opt Options) (*Card, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Limit)
		defer cancel()
	}
	card := &Card{}
	for _, c := range Columns {
		if opt.Columns == nil || slices.Contains(opt.Columns, c.ID) {
			card.Columns = append(card.Columns, c)
		}
	}
	for _, a := range lock.Algorithms {
		if opt.Algorithms != nil && !slices.Contains(opt.Algorithms, a.ID) {
			continue
		}
		p, err := RunProbe(a)
		if err != nil {
			return nil, err
		}
		row := &Row{Algorithm: a.ID, Catalog: a.Row, Title: a.Title, Probe: p, Needs: p.Needs(), Storage: p.Tokens}
		for _, c := range card.Columns {
			row.Cells = append(row.Cells, &Cell{Column: c.ID})
		}
		card.Rows = append(card.Rows, row)
	}
	if opt.Started != nil {
		opt.Started(card)
	}
	err := searchCells(ctx, card, workers, opt, func(ctx context.Context, row *Row, col *Column, yield func() error) (*Cell, error) {
		a, _ := lock.Lookup(row.Algorithm)
		return runCell(ctx, a, row, col, yield)
	})
	if err != nil {
		return nil, err
	}
	for _, row := range card.Rows {
		row.Advice = Advice(row)
	}
	card.Unsearched = unsearchedNote(card, opt.Limit, workers)
	return card, ctx.Err()
}

// searchCells fills every cell of the card's rows, workers at a time,
// each by run; the first error stops the others (the jobs left are
// drained) and is returned.
func searchCells(ctx context.Context, card *Card, workers int, opt Options,
	run func(ctx context.Context, row *Row, col *Column, yield func() error) (*Cell, error)) error {
	type job struct {
		row *Row
		col int
	}
	jobs := make(chan job)
	total := len(card.Rows) * len(card.Columns)
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var yield func() error
			if opt.Worker != nil {
				var release func()
				yield, release = opt.Worker()
				defer release()
			}
			for j := range jobs {
				mu.Lock()
				failed := firstErr != nil
				mu.Unlock()
				if failed {
					continue // the card has failed: drain the jobs
				}
				c, err := run(ctx, j.row, &card.Columns[j.col], yield)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if c != nil {
					j.row.Cells[j.col] = c
				}
				done++
				n := done
				mu.Unlock()
				if opt.Progress != nil && c != nil {
					opt.Progress(j.row.Algorithm, c, n, total)
				}
			}
		}()
	}
	for _, row := range card.Rows {
		for i := range card.Columns {
			jobs <- job{row, i}
		}
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// unsearchedNote says how many of the card's cells its time limit
// stopped, and the limit; nil when it stopped none.
func unsearchedNote(card *Card, limit time.Duration, workers int) *sim.Text {
	n, total := 0, 0
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			total++
			if c.Kind == Unsearched {
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	lim := fact.Say("report.card-limit")
	if limit > 0 {
		lim = fact.Say("report.card-limit-of", limit, workers, noun(workers, "cell", "cells"))
	}
	note := fact.Say("report.unsearched-note", n, total, lim)
	return &note
}

// ComputeCell computes one cell of the card on its own, with its row
// (probed, with no other cell).
func ComputeCell(ctx context.Context, algorithm, column string) (*Row, *Cell, error) {
	a, ok := lock.Lookup(algorithm)
	if !ok {
		return nil, nil, fail(nil, fact.Say("report.no-algorithm", algorithm))
	}
	col, ok := ColumnByID(column)
	if !ok {
		return nil, nil, fail(nil, fact.Say("report.no-column", column))
	}
	p, err := RunProbe(a)
	if err != nil {
		return nil, nil, err
	}
	row := &Row{Algorithm: a.ID, Catalog: a.Row, Title: a.Title, Probe: p, Needs: p.Needs(), Storage: p.Tokens}
	c, err := runCell(ctx, a, row, col, nil)
	if err != nil {
		return nil, nil, err
	}
	row.Cells = []*Cell{c}
	return row, c, nil
}

// An Error is why the card could not compute a row or a cell (a template
// that does not check, a search that failed): Words says it in English and
// Chinese; Error is the English.
type Error struct {
	Words sim.Text
	Err   error // the cause, if any
}

func (e *Error) Error() string { return e.Words.En }
func (e *Error) Unwrap() error { return e.Err }

// fail is an Error of cause said in words.
func fail(cause error, words sim.Text) *Error {
	return &Error{Words: words, Err: cause}
}

// cellError is the error of a cell whose search failed with err.
func cellError(a *lock.Info, col *Column, err error) *Error {
	why := fact.Error(err).Render()
	return &Error{Err: err, Words: fact.Say("report.cell-error", a.ID, col.ID, why)}
}

// MarkWriteRejected is the mark of a write the storage refused (a token
// older than one it has seen).
const MarkWriteRejected = "write-rejected"

// notApplicable says why col's fault does not apply to a lock, or nil.
func notApplicable(p *Probe, col *Column) *sim.Text {
	var why sim.Text
	switch {
	case !p.Locks && !p.Network && (col.Network || col.Node):
		why = fact.Say("report.na-no-lock")
	case !p.Network && (col.Network || col.Node):
		why = fact.Say("report.na-in-process")
	case p.Masters == 0 && p.SQL && (col.Node || col.Network):
		why = fact.Say("report.na-sql")
	case col.Replica && p.Masters > 1:
		why = fact.Say("report.na-no-replica")
	default:
		return nil
	}
	return &why
}
