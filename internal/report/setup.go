package report

import (
	"context"
	"runtime"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The budgets of each cell of a card for a user's setup (SetupOptions):
// engine steps, counts and not times, so that the card is the same on
// every machine. They are a fifth of the catalog card's: a user's
// workload has more clients and longer runs, and the whole card (the
// user's locks and every catalog lock, 9 columns) must come back in
// under a minute on two cores (BenchmarkSetupCard).
const (
	SetupSteps  = 20000 // engine steps of a cell's exhaustive search
	SetupRandom = 8000  // engine steps of the random walk that follows it
)

// SetupLimit is the default wall-clock limit of a card for a user's
// setup: past it the cells not yet searched say so (?).
const SetupLimit = 55 * time.Second

// SetupOptions bound a card for a user's setup.
type SetupOptions struct {
	// File names the user's scenario file, for the commands that replay
	// its counterexamples.
	File string
	// Workers run cells at once (default: the number of CPUs).
	Workers int
	// Limit stops the card after this long (0: only ctx stops it).
	Limit time.Duration
	// Steps and Random are each cell's budgets (0: SetupSteps and
	// SetupRandom).
	Steps, Random int
	// Algorithms adds only these locks beside the user's own (nil: every
	// lock of the catalog).
	Algorithms []string
	// Columns limits the card to these columns, the faults the user fears
	// (nil: every one); What to use instead reads only these.
	Columns []string
	// Progress and Worker are as in Options.
	Progress func(algorithm string, c *Cell, done, total int)
	// Started, when set, is called once every lock has been probed and
	// before any cell is searched, with the card: its setup, columns and
	// rows (their cells still empty).
	Started func(*SetupCard)
	Worker  func() (yield func() error, release func())
}

// SetupCard is the card for a user's setup: the locks the user's
// scenario runs and every lock of the catalog, each placed in the user's
// own workload (their clients, start times, work, requests, data, keys,
// lease and retry), against each fault column sized to that lease; and
// what to use instead.
type SetupCard struct {
	File     string `json:"file,omitempty"`
	Scenario string `json:"scenario"`
	// Setup says the workload every row was placed in.
	Setup   sim.Text          `json:"setup"`
	Lease   scenario.Duration `json:"lease"`
	Retry   scenario.Duration `json:"retry"`
	Steps   int               `json:"steps"`  // each cell's exhaustive budget, engine steps
	Random  int               `json:"random"` // each cell's random-walk budget, engine steps
	Columns []Column          `json:"columns"`
	// Rows: the user's locks first (Yours), then the catalog's.
	Rows       []*Row        `json:"rows"`
	Instead    []Alternative `json:"instead"`
	Unsearched *sim.Text     `json:"unsearched,omitempty"`
	// Code is the user's locks' code and the first alternative's, for the
	// export (HTML).
	Code []LockCode `json:"code,omitempty"`
	// Yours is the acquire and release of the user's first lock, which
	// What to use instead sets beside each alternative's (Alternative.Code).
	Yours *StepCode `json:"yours,omitempty"`
}

// BuildSetup computes the card for the user's scenario sc (parsed from a
// file: its own locks, clients and data as written). It probes every
// lock alone, then searches every cell, the user's rows first, Workers
// at a time. When ctx ends or the limit passes, the cells not yet done
// are Unsearched and the card is returned with ctx's error.
func BuildSetup(ctx context.Context, sc *scenario.Scenario, opt SetupOptions) (*SetupCard, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Limit)
		defer cancel()
	}
	if opt.Steps <= 0 {
		opt.Steps = SetupSteps
	}
	if opt.Random <= 0 {
		opt.Random = SetupRandom
	}
	w := newWorkload(sc)
	card := &SetupCard{File: opt.File, Scenario: sc.ID, Setup: w.words(), Lease: scenario.Duration(w.lease),
		Retry: scenario.Duration(w.retry), Steps: opt.Steps, Random: opt.Random}
	for _, c := range SetupColumns(w.lease) {
		if opt.Columns == nil || slices.Contains(opt.Columns, c.ID) {
			card.Columns = append(card.Columns, c)
		}
	}
	for _, id := range setupAlgorithms(sc, opt.Algorithms) {
		row, err := w.row(id, card.Columns)
		if err != nil {
			return nil, err
		}
		card.Rows = append(card.Rows, row)
	}
	if opt.Started != nil {
		opt.Started(card)
	}
	grid := &Card{Columns: card.Columns, Rows: card.Rows}
	err := searchCells(ctx, grid, workers, Options{Progress: opt.Progress, Worker: opt.Worker},
		func(ctx context.Context, row *Row, col *Column, yield func() error) (*Cell, error) {
			return w.cell(ctx, row, col, opt, yield)
		})
	if err != nil {
		return nil, err
	}
	for _, row := range card.Rows {
		row.Advice = Advice(row)
	}
	card.Unsearched = unsearchedNote(grid, opt.Limit, workers)
	card.Instead = Instead(card.Rows)
	card.Code = setupCode(sc, card)
	card.stepCode(sc)
	return card, ctx.Err()
}

// setupAlgorithms are the card's rows: the algorithms the scenario's
// clients run, in the order they first appear, then every lock of the
// catalog (or only those of only).
func setupAlgorithms(sc *scenario.Scenario, only []string) []string {
	var out []string
	for _, c := range sc.Clients {
		if !slices.Contains(out, c.Algorithm) {
			out = append(out, c.Algorithm)
		}
	}
	for _, a := range lock.Algorithms {
		if !slices.Contains(out, a.ID) && (only == nil || slices.Contains(only, a.ID)) {
			out = append(out, a.ID)
		}
	}
	return out
}
