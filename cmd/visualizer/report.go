package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/livecard"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// cmdReport prints the report card: every lock of the catalog against
// every fault column, each cell decided by a schedule search
// (internal/report). The searches are bounded by counts of engine steps,
// so the card is the same on every machine; --time only stops a card
// that runs too long (by default a time that grows as fewer workers share
// it), and the cells it stopped say so, with the limit, and advise
// nothing.
func cmdReport(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := newFlags("report", stderr)
	asJSON := fs.Bool("json", false, "print the card as one JSON object")
	lang := fs.String("lang", "en", "en or zh")
	only := fs.String("only", "", "only these locks, e.g. lua-compare-delete,redlock (default: every one)")
	cell := fs.String("cell", "", "compute one cell, LOCK/COLUMN, and print its counterexample as a scenario file (or what it found)")
	markdown := fs.Bool("markdown", false, "print docs/choosing-a-lock.md")
	yml := fs.Bool("yaml", false, "print every counterexample as one scenario file (docs/choosing-a-lock.yaml)")
	asHTML := fs.Bool("html", false, fact.Say("cmd.report.flag-html").En)
	limit := fs.Duration("time", 0, "wall-clock limit of the whole card (default: report.CardCPU, 20m, shared among the workers, at least 5m); the cells it stops say so and give no advice")
	workers := fs.Int("workers", 0, "cells searched at once (default: the number of CPUs)")
	file := fs.String("file", "", "the card for your setup: the locks of this scenario file and every catalog lock, placed in its workload")
	id := fs.String("scenario", "", "with --file: the scenario whose workload the locks are placed in (default: the file's only one)")
	faults := fs.String("faults", "", "with --file: only these columns, the faults you fear, e.g. contention,pause-release (default: every one)")
	runs := fs.Int("runs", livecard.DefaultRuns, "real-time runs of each cell of a live lock (etcd-mutex, zookeeper-lock), all at once")
	etcdAt := etcdFlag(fs)
	zk := zookeeperFlag(fs)
	pos, err := interleave(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return badUsage("report takes no arguments (got %s)", strings.Join(pos, " "))
	}
	if err := checkOutput(*lang, *asJSON, *markdown, *yml, *asHTML, *cell != ""); err != nil {
		return err
	}
	defer cardGC(getenv)()
	if *file == "" && (*id != "" || *faults != "" || *asHTML) {
		return badUsage("--scenario, --faults and --html go with --file")
	}
	if *file != "" {
		if *cell != "" {
			return badUsage("--cell is a cell of the catalog's card; with --file, use --only LOCK --faults COLUMN")
		}
		return reportSetup(ctx, setupFlags{file: *file, id: *id, only: *only, faults: *faults, lang: *lang,
			json: *asJSON, markdown: *markdown, yaml: *yml, html: *asHTML, limit: *limit, workers: *workers}, stdout, stderr)
	}
	if *limit <= 0 {
		*limit = report.DefaultLimit(*workers)
	}
	if *runs <= 0 {
		return badUsage("--runs is at least 1, not %d", *runs)
	}
	if *cell != "" {
		return reportOneCell(ctx, *cell, *limit, livecard.Options{Runs: *runs, Etcd: *etcdAt, ZooKeeper: zk.where}, *lang, stdout)
	}
	opt := report.Options{Workers: *workers, Limit: *limit}
	lf := liveFlags{ids: livecard.IDs(), runs: *runs, etcd: *etcdAt, zookeeper: zk.where, json: *asJSON, markdown: *markdown, lang: *lang}
	if *only != "" {
		searched := func(id string) bool { _, ok := lock.Lookup(id); return ok }
		if opt.Algorithms, lf.ids, err = splitOnly(*only, searched, lock.IDs()); err != nil {
			return err
		}
		if opt.Algorithms == nil {
			return reportLiveOnly(ctx, lf, *yml, stdout, stderr)
		}
	}
	card, err := buildCard(ctx, opt, stderr)
	if card == nil {
		return err
	}
	if ctx.Err() != nil {
		return errInterrupted
	}
	if len(lf.ids) > 0 && !*yml {
		rows, lerr := liveRows(ctx, lf, stderr)
		if lerr != nil {
			return lerr
		}
		card.Live = rows
	}
	if e := printCard(card, *asJSON, *markdown, *yml, *lang, stdout); e != nil {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("report: the card ran past --time %v; the cells it stopped say so", *limit)
	}
	return err
}

// reportOneCell prints one cell, LOCK/COLUMN: a live lock's in real
// time, a searched lock's by the engine.
func reportOneCell(ctx context.Context, cell string, limit time.Duration, live livecard.Options, lang string, stdout io.Writer) error {
	if algorithm, column, ok := strings.Cut(cell, "/"); ok && slices.Contains(livecard.IDs(), algorithm) {
		return reportLiveCell(ctx, live, algorithm, column, lang, stdout)
	}
	return reportCell(ctx, limit, cell, lang, stdout)
}

// checkOutput checks --lang and that at most one of the output flags is
// given (--json, --markdown, --yaml, --html, --cell): report prints one
// card.
func checkOutput(lang string, outputs ...bool) error {
	if lang != "en" && lang != "zh" {
		return badUsage("--lang is en or zh, not %q", lang)
	}
	n := 0
	for _, on := range outputs {
		if on {
			n++
		}
	}
	if n > 1 {
		return badUsage("give at most one of --json, --markdown, --yaml, --html and --cell")
	}
	return nil
}

// reportLiveOnly prints the card of live locks only (--only names no
// searched lock): their cells are real-time runs, with no counterexample
// to give --yaml.
func reportLiveOnly(ctx context.Context, lf liveFlags, yml bool, stdout, stderr io.Writer) error {
	if yml {
		return fmt.Errorf("--yaml: %s have no counterexamples to replay: their cells are real-time runs on a live server, not searches", strings.Join(lf.ids, ", "))
	}
	rows, err := liveRows(ctx, lf, stderr)
	if err != nil {
		return err
	}
	return printLiveCard(rows, lf, stdout)
}

// buildCard computes the catalog's card, showing its progress on stderr
// when stderr is a terminal.
func buildCard(ctx context.Context, opt report.Options, stderr io.Writer) (*report.Card, error) {
	start := time.Now()
	if isTerminal(stderr) {
		opt.Progress = func(algorithm string, c *report.Cell, done, total int) {
			fmt.Fprintf(stderr, "\r%d of %d cells, %.1fs: %s/%s %s   ", done, total, time.Since(start).Seconds(), algorithm, c.Column, report.Symbol(c.Kind))
		}
	}
	card, err := report.Build(ctx, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	return card, err
}

// printCard prints the card as JSON (with the bound its cells are stated
// within), as docs/choosing-a-lock.md, as one scenario file of its
// counterexamples, or as text in lang.
func printCard(card *report.Card, asJSON, markdown, yml bool, lang string, stdout io.Writer) error {
	switch {
	case asJSON:
		// The card and the bound every ✓ and ~ is stated within.
		out := struct {
			Bound sim.Text `json:"bound"`
			*report.Card
		}{report.Bound(), card}
		return json.NewEncoder(stdout).Encode(out)
	case markdown:
		_, err := io.WriteString(stdout, card.Markdown())
		return err
	case yml:
		data, err := scenario.Marshal(card.Counterexamples())
		if err != nil {
			return err
		}
		_, err = stdout.Write(append([]byte(report.YAMLHead), data...))
		return err
	}
	_, err := io.WriteString(stdout, card.Text(lang))
	return err
}

// reportCell computes one cell and prints its counterexample (a scenario
// file that replays with visualizer run --file), or for a cell without
// one what the search found, within limit.
func reportCell(parent context.Context, limit time.Duration, spec, lang string, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	algorithm, column, ok := strings.Cut(spec, "/")
	if !ok {
		return badUsage("--cell is LOCK/COLUMN, e.g. watchdog/pause (columns: %s)", strings.Join(report.ColumnIDs(), ", "))
	}
	if _, ok := lock.Lookup(algorithm); !ok {
		return fmt.Errorf("--cell: no lock %q (the locks: %s)", algorithm, strings.Join(lock.IDs(), ", "))
	}
	if _, ok := report.ColumnByID(column); !ok {
		return fmt.Errorf("--cell: no column %q (the columns: %s)", column, strings.Join(report.ColumnIDs(), ", "))
	}
	row, c, err := report.ComputeCell(ctx, algorithm, column)
	if err != nil {
		if parent.Err() != nil {
			return errInterrupted
		}
		return err
	}
	fmt.Fprintf(stdout, "# %s/%s: %s\n", algorithm, column, report.Pick(c.Text(row), lang))
	rec := c.Counterexample
	if rec == nil {
		rec = c.Example
	}
	if rec == nil {
		return nil
	}
	data, err := scenario.MarshalScenario(rec)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# replay: visualizer run --file FILE %s\n", rec.ID)
	_, err = stdout.Write(data)
	return err
}

// The collector's settings for a card (cardGC).
const (
	cardGCPercent = 800       // collect at 9x the live heap, not 2x
	cardMemLimit  = 256 << 20 // a soft limit: past it the collector works harder
)

// cardGC sets the garbage collector for computing a card, where the
// environment does not (GOGC, GOMEMLIMIT), and gives what restores it. A
// card runs thousands of short worlds: its live heap stays small while it
// allocates gigabytes, so Go's default (collect when the heap doubles)
// collects all the time. Collecting at 9x took the whole card from about
// 70 s of CPU to about 49 s, for 117-158 MB of RSS instead of 45 MB
// (docs/performance.md); the soft limit keeps a larger live heap from
// growing nine times.
func cardGC(getenv func(string) string) (restore func()) {
	gc, limit := 0, int64(-1)
	setGC := getenv("GOGC") == ""
	if setGC {
		gc = debug.SetGCPercent(cardGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(cardMemLimit)
	}
	return func() {
		if setGC {
			debug.SetGCPercent(gc)
		}
		if limit >= 0 {
			debug.SetMemoryLimit(limit)
		}
	}
}
