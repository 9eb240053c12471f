package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
)

// setupFlags are report's flags for the card of a user's setup (--file).
type setupFlags struct {
	file, id, only, faults, lang string
	json, markdown, yaml, html   bool
	limit                        time.Duration
	workers                      int
}

// reportSetup prints the card for the setup of scenario --scenario of
// --file (its only scenario when it has one): the locks it runs and every
// catalog lock placed in its workload, against each fault column sized to
// its lease, and what to use instead. Each cell's search is bounded by
// counts of engine steps (report.SetupSteps); --time (default
// report.SetupLimit) stops the card, and the cells it stopped say so.
func reportSetup(ctx context.Context, f setupFlags, stdout, stderr io.Writer) error {
	file, err := scenario.Load(f.file)
	if err != nil {
		return err
	}
	sc, err := setupScenario(file, f.id, f.file)
	if err != nil {
		return err
	}
	opt := report.SetupOptions{File: f.file, Workers: f.workers, Limit: f.limit}
	if opt.Limit <= 0 {
		opt.Limit = report.SetupLimit
	}
	if f.only != "" {
		for _, id := range strings.Split(f.only, ",") {
			id = strings.TrimSpace(id)
			if _, ok := sc.Lookup(id); !ok {
				return fmt.Errorf("--only: no lock %q (the locks: %s)", id, strings.Join(sc.AlgorithmIDs(), ", "))
			}
			opt.Algorithms = append(opt.Algorithms, id)
		}
	}
	if f.faults != "" {
		var ids []string
		for _, c := range report.SetupColumns(report.Lease) {
			ids = append(ids, c.ID)
		}
		for _, id := range strings.Split(f.faults, ",") {
			id = strings.TrimSpace(id)
			if !slices.Contains(ids, id) {
				return fmt.Errorf("--faults: no column %q (the columns: %s)", id, strings.Join(ids, ", "))
			}
			opt.Columns = append(opt.Columns, id)
		}
	}
	start := time.Now()
	if isTerminal(stderr) {
		opt.Progress = func(algorithm string, c *report.Cell, done, total int) {
			fmt.Fprintf(stderr, "\r%d of %d cells, %.1fs: %s/%s %s   ", done, total, time.Since(start).Seconds(), algorithm, c.Column, report.Symbol(c.Kind))
		}
	}
	card, err := report.BuildSetup(ctx, sc, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if card == nil {
		return err
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	if e := writeSetup(card, f, stdout); e != nil {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("report: the card ran past --time %v; the cells it stopped say so", opt.Limit)
	}
	return err
}

// setupScenario is scenario id of the file at path, or its only one.
func setupScenario(f *scenario.File, id, path string) (*scenario.Scenario, error) {
	if id != "" {
		return findScenario(f, id, path)
	}
	if len(f.Scenarios) == 1 {
		return &f.Scenarios[0], nil
	}
	ids := make([]string, len(f.Scenarios))
	for i, s := range f.Scenarios {
		ids[i] = s.ID
	}
	return nil, badUsage("%s has %d scenarios: choose one with --scenario (%s)", path, len(ids), strings.Join(ids, ", "))
}

// writeSetup prints the card as --json, --markdown, --yaml, --html or
// text ask.
func writeSetup(card *report.SetupCard, f setupFlags, stdout io.Writer) error {
	switch {
	case f.json:
		return json.NewEncoder(stdout).Encode(card)
	case f.markdown:
		_, err := io.WriteString(stdout, card.Markdown())
		return err
	case f.html:
		page, err := card.HTML()
		if err != nil {
			return err
		}
		_, err = io.WriteString(stdout, page)
		return err
	case f.yaml:
		data, err := scenario.Marshal(card.Counterexamples())
		if err != nil {
			return err
		}
		head := "# The counterexamples of the card for " + card.Scenario + " (" + card.File + "), shrunk, each\n" +
			"# expecting the verdicts it replays to; check with: visualizer test --file THIS_FILE\n"
		_, err = stdout.Write(append([]byte(head), data...))
		return err
	}
	_, err := io.WriteString(stdout, card.Text(f.lang))
	return err
}
