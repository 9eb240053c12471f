package server

import (
	"context"
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"

	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
)

// wireCard is the card as the page draws it: no counterexamples (a cell
// that has one says so, and report-open loads it).
type wireCard struct {
	Columns []wireColumn `json:"columns"`
	Bound   sim.Text     `json:"bound"`
	Legend  sim.Text     `json:"legend"`
	Rows    []*wireRow   `json:"rows"`
	Done    int          `json:"done"`
	Total   int          `json:"total"`
	Running bool         `json:"running,omitempty"`
	// Stored: the card is the one computed for this build and carried by
	// the binary (docs/choosing-a-lock.json), not computed by this server.
	Stored bool       `json:"stored,omitempty"`
	Error  *wireError `json:"error,omitempty"` // why the card stopped before its end
	// Live are the rows of locks on a live server (etcd, ZooKeeper), each
	// cell a sample of real-time runs, not a search (report.Card.Live:
	// only a stored card has them), and LiveLegend what their marks say.
	Live       []*wireRow `json:"live,omitempty"`
	LiveLegend *sim.Text  `json:"live_legend,omitempty"`
}

// wireError is an error inside another message, as an error message
// carries it: its code, the code's arguments and the English text.
type wireError struct {
	Code  string         `json:"code"`
	Args  map[string]any `json:"args,omitempty"`
	Error string         `json:"error"`
}

// cardError is why the card stopped: its deadline passed, or a row or a
// cell failed (report.Error says which, in both languages).
func cardError(err error) *wireError {
	var re *report.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		err = coded("report-deadline", map[string]any{"max": cardTime.String()}, "report: the card's %s ran out before every cell was searched", cardTime)
	case errors.As(err, &re):
		err = coded("report-failed", map[string]any{"detail": re.Words}, "%s", re.Words.En)
	}
	m := errorMessage(0, err)
	return &wireError{Code: m.Code, Args: m.Args, Error: m.Error}
}

type wireColumn struct {
	ID    string   `json:"id"`
	Title sim.Text `json:"title"`
	What  sim.Text `json:"what"`
}

type wireRow struct {
	Lock    string   `json:"lock"`
	Catalog int      `json:"catalog"`
	Title   string   `json:"title"`
	Name    sim.Text `json:"name"` // the lock in words (report.Name)
	// Within is the bound its ✓ hold within, short ("2×1 · 1s") and in
	// words (report.Row.Within).
	Within     sim.Text    `json:"within"`
	WithinText sim.Text    `json:"within_text"`
	Trips      sim.Text    `json:"trips"`
	Needs      sim.Text    `json:"needs"`
	Advice     sim.Text    `json:"advice"`
	Cells      []*wireCell `json:"cells"`
	// Yours: on the card for a setup, a lock the user's scenario runs
	// (its first rows); their Within is the user's workload.
	Yours bool `json:"yours,omitempty"`

	// Sample, for a live row, says how many real-time runs a cell, on
	// which server, when and on what machine.
	Sample *sim.Text `json:"sample,omitempty"`
}

// wireCell is one cell; Kind "" while it is being searched.
type wireCell struct {
	Lock    string   `json:"lock"`
	Column  string   `json:"column"`
	Kind    string   `json:"kind,omitempty"`
	Verdict string   `json:"verdict,omitempty"`
	Text    sim.Text `json:"text"`
	// Replay: the cell has a schedule to open in the timeline (a ✗'s
	// counterexample, or the refused write a fencing ✓ rests on).
	Replay bool `json:"replay,omitempty"`
	// Runs and Broken: a live cell's real-time runs, and how many of them
	// broke the lock.
	Runs   int `json:"runs,omitempty"`
	Broken int `json:"broken,omitempty"`
}

func wireCellOf(row *report.Row, c *report.Cell) *wireCell {
	return &wireCell{Lock: row.Algorithm, Column: c.Column, Kind: c.Kind, Verdict: c.Verdict, Text: c.Text(row),
		Replay: c.Counterexample != nil || c.Example != nil}
}

// wireOf is the card's rows as drawn, with the cells done so far.
func wireOf(card *report.Card) []*wireRow {
	rows := make([]*wireRow, len(card.Rows))
	for i, r := range card.Rows {
		w := &wireRow{Lock: r.Algorithm, Catalog: r.Catalog, Title: r.Title, Name: report.Name(r.Algorithm), Advice: r.Advice,
			Trips: sim.Text{En: r.Trips("en"), Zh: r.Trips("zh")}, Needs: r.NeedsText()}
		w.Within, w.WithinText = r.Within()
		if r.Bound != nil { // the card for a setup: the user's workload
			w.Within, w.WithinText, w.Yours = *r.Bound, *r.Bound, r.Yours
		}
		for _, c := range r.Cells {
			if c.Kind == "" {
				w.Cells = append(w.Cells, &wireCell{Lock: r.Algorithm, Column: c.Column})
			} else {
				w.Cells = append(w.Cells, wireCellOf(r, c))
			}
		}
		rows[i] = w
	}
	return rows
}

// clone copies the card for a message: its rows and their cell lists,
// which the card's workers change (a cell itself is never changed, only
// replaced).
func (w *wireCard) clone() *wireCard {
	out := *w
	out.Rows = make([]*wireRow, len(w.Rows))
	for i, r := range w.Rows {
		rc := *r
		rc.Cells = slices.Clone(r.Cells)
		out.Rows[i] = &rc
	}
	return &out
}

func newWireCard() *wireCard {
	return &wireCard{Bound: report.Bound(), Legend: report.Legend(), Running: true}
}

func wireColumns(card *report.Card) []wireColumn {
	var out []wireColumn
	for _, c := range card.Columns {
		out = append(out, wireColumn{ID: c.ID, Title: c.Title, What: c.What})
	}
	return out
}

// wireLive is the card's live rows as drawn: named in words with the
// write they make, each with where and when its runs ran.
func wireLive(card *report.Card) []*wireRow {
	var out []*wireRow
	for _, r := range card.Live {
		name := report.Name(r.Algorithm)
		s := r.Sample
		w := &wireRow{Lock: r.Algorithm, Title: r.Title, Advice: r.Advice, Needs: r.NeedsText(),
			Name:   fact.Say("server.live-row-name", name, r.Variant),
			Sample: new(fact.Say("server.live-sample", s.Runs, s.Date, s.Server))} // the machine is in docs/choosing-a-lock.md
		for _, c := range r.Cells {
			wc := wireCellOf(r, c)
			wc.Runs, wc.Broken = c.Runs, c.Broken
			w.Cells = append(w.Cells, wc)
		}
		out = append(out, w)
	}
	return out
}
