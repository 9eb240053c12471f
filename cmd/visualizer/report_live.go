package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/livecard"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
)

// liveFlags are report's flags for the live rows (etcd, ZooKeeper).
type liveFlags struct {
	ids       []string // the live locks --only names
	runs      int
	etcd      string
	zookeeper string
	json      bool
	markdown  bool
	lang      string
}

// splitOnly parts --only's ids into the locks the card searches and the
// live ones (whose cells are real-time runs); an id that is neither is
// an error naming both lists.
func splitOnly(only string, searched func(string) bool, searchedIDs []string) (search, live []string, err error) {
	for _, id := range strings.Split(only, ",") {
		id = strings.TrimSpace(id)
		switch {
		case slices.Contains(livecard.IDs(), id):
			live = append(live, id)
		case searched(id):
			search = append(search, id)
		default:
			return nil, nil, fmt.Errorf("--only: no lock %q (the locks: %s; on a live server, in real time: %s)",
				id, strings.Join(searchedIDs, ", "), strings.Join(livecard.IDs(), ", "))
		}
	}
	return search, live, nil
}

// liveRows runs the live rows of f.ids, a progress line on stderr when it
// is a terminal. Each cell's runs are real time: the row takes seconds.
func liveRows(ctx context.Context, f liveFlags, stderr io.Writer) ([]*report.Row, error) {
	opt := livecard.Options{Runs: f.runs, Algorithms: f.ids, Etcd: f.etcd, ZooKeeper: f.zookeeper}
	if isTerminal(stderr) {
		start := time.Now()
		opt.Progress = func(r *report.Row, c *report.Cell) {
			fmt.Fprintf(stderr, "\r\033[K%.1fs: %s/%s %s (real time)", time.Since(start).Seconds(), r.Name(), c.Column, c.Mark())
		}
		defer fmt.Fprint(stderr, "\r\033[K")
	}
	rows, err := livecard.Build(ctx, opt)
	if ctx.Err() != nil {
		return nil, errInterrupted
	}
	return rows, err
}

// printLiveCard prints a card of live rows only, as f asks.
func printLiveCard(rows []*report.Row, f liveFlags, stdout io.Writer) error {
	card := &report.Card{Columns: report.Columns, Live: rows}
	switch {
	case f.json:
		out := struct {
			Legend sim.Text `json:"legend"`
			*report.Card
		}{report.LiveLegend(), card}
		return json.NewEncoder(stdout).Encode(out)
	case f.markdown:
		_, err := io.WriteString(stdout, card.LiveMarkdown())
		return err
	}
	_, err := io.WriteString(stdout, card.LiveText(f.lang))
	return err
}

// reportLiveCell computes one cell of a live lock (report --cell
// etcd-mutex/pause): for each of its rows, opt.Runs real-time runs of the
// cell's fault, the cell as the card says it, and the log of one run (the
// first that broke the lock, else the first). It says first that the runs
// are in real time: a cell of a live lock has no schedule to replay.
func reportLiveCell(ctx context.Context, opt livecard.Options, algorithm, column, lang string, stdout io.Writer) error {
	if !slices.Contains(livecard.Columns(), column) {
		return fmt.Errorf("--cell: no column %q (the columns: %s)", column, strings.Join(livecard.Columns(), ", "))
	}
	cells, err := livecard.OneCell(ctx, opt, algorithm, column)
	if ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# %s\n", (&fact.Fact{Key: fact.RealTime}).Render().En)
	for _, cr := range cells {
		fmt.Fprintf(stdout, "# %s (%s)/%s: %s\n", cr.Row.Algorithm, cr.Row.Variant, column, report.Pick(cr.Cell.Text(cr.Row), lang))
		if cr.Log == nil {
			continue
		}
		s := cr.Row.Sample
		fmt.Fprintf(stdout, "# %d real-time runs on %s, %s, %s; a real-time run does not replay: the record of one of them follows\n", s.Runs, s.Server, s.Date, s.Machine)
		for _, e := range cr.Log {
			fmt.Fprintln(stdout, e.String())
		}
	}
	return nil
}
