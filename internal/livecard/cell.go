package livecard

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
)

// CellRun is one live row's cell computed alone (report --cell): the row
// it belongs to (its sample stamped as Build stamps it), the cell, and the
// log of one of its real-time runs: the first that broke the lock, else
// the first (none for a cell that was not run).
type CellRun struct {
	Row  *report.Row
	Cell *report.Cell
	Log  []sim.Event
}

// OneCell runs the cell of column in every live row of algorithm (a live
// lock has a row per way of writing the resource), as Build runs a row's
// cells: opt.Runs real-time runs, opt.Parallel at once. A run does not
// replay: the log given is the record of one run, not a schedule.
func OneCell(ctx context.Context, opt Options, algorithm, column string) ([]CellRun, error) {
	if !slices.Contains(IDs(), algorithm) {
		return nil, fmt.Errorf("livecard: no live lock %q (the live locks: %s)", algorithm, strings.Join(IDs(), ", "))
	}
	if !slices.Contains(Columns(), column) {
		return nil, fmt.Errorf("livecard: no column %q (the columns: %s)", column, strings.Join(Columns(), ", "))
	}
	opt.defaults()
	var srv *server
	var out []CellRun
	for i := range Rows {
		r := &Rows[i]
		if r.Algorithm != algorithm {
			continue
		}
		spec := r.Cells[column]
		row := &report.Row{Algorithm: r.Algorithm, Variant: r.Variant, Title: r.Title, Needs: r.Needs, Storage: r.Storage, Advice: r.Advice,
			Sample: &report.Sample{Runs: opt.Runs, Date: opt.Now().UTC().Format("2006-01-02"), Machine: Machine()}}
		c := &report.Cell{Column: column}
		if spec.NA != nil {
			c.Kind, c.Why = report.NA, spec.NA
			out = append(out, CellRun{Row: row, Cell: c})
			continue
		}
		if srv == nil {
			var err error
			if srv, err = startServer(r.service, opt); err != nil {
				return nil, err
			}
			defer srv.close()
		}
		row.Sample.Server = srv.name
		if srv.missing != nil {
			c.Kind, c.Why = report.Unsearched, srv.missing
			out = append(out, CellRun{Row: row, Cell: c})
			continue
		}
		c, recs, err := runCell(ctx, r, &spec, column, srv, opt.Runs, opt.Parallel)
		if err != nil {
			return nil, err
		}
		cr := CellRun{Row: row, Cell: c, Log: recs[0].Events()}
		for _, rec := range recs {
			if Breaks(r.Storage, rec.Verdicts()) != "" {
				cr.Log = rec.Events()
				break
			}
		}
		row.Cells = []*report.Cell{c}
		out = append(out, cr)
	}
	return out, ctx.Err()
}
