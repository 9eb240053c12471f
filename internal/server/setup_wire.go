package server

// The card for a setup on the wire (setup.go): what the page draws, and
// how the card's end is written into it.

import (
	"context"
	"errors"
	"time"

	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
)

// wireSetup is the card for a setup as the page draws it: the grid as
// the catalog's card has it (wireCard: columns, rows with the user's
// first, cells), and what the setup card adds.
type wireSetup struct {
	wireCard
	Scenario string   `json:"scenario"` // the scenario checked (its id)
	Setup    sim.Text `json:"setup"`    // the workload every row was placed in
	Limit    string   `json:"limit"`    // the card's time budget ("55s")
	Workers  int      `json:"workers"`  // cells searched at once
	// Instead are the locks proposed in place of the user's (done only).
	Instead []wireAlternative `json:"instead"`
	// Yours is the user's first lock's acquire and release, which the
	// page sets beside each alternative's (done only).
	Yours *report.StepCode `json:"yours,omitempty"`
	// Unsearched says how many cells the budget stopped (done, when any).
	Unsearched *sim.Text `json:"unsearched,omitempty"`
	Cancelled  bool      `json:"cancelled,omitempty"`
	// Markdown is the card for a design review, as visualizer report
	// --file --markdown prints it (done only); Name the file to save it as.
	Markdown string `json:"markdown,omitempty"`
	Name     string `json:"name"`
	// HTML is the same card as one page that opens offline
	// (report.SetupCard.HTML, visualizer report --file --html; done
	// only), HTMLName the file to save it as.
	HTML     string `json:"html,omitempty"`
	HTMLName string `json:"html_name"`
}

// wireAlternative is one lock of What to use instead.
type wireAlternative struct {
	Lock       string   `json:"lock"`
	Name       sim.Text `json:"name"`
	Everywhere bool     `json:"everywhere"`
	Fails      []string `json:"fails,omitempty"`
	NA         []string `json:"na,omitempty"`
	Holds      int      `json:"holds"`
	Sampled    int      `json:"sampled"`
	Trips      sim.Text `json:"trips"`
	Needs      sim.Text `json:"needs"`
	Difference sim.Text `json:"difference"`
	// Code is its acquire and release, beside Yours.
	Code *report.StepCode `json:"code,omitempty"`
}

// clone copies the card for a message (its rows' cell lists change as
// cells are decided).
func (w *wireSetup) clone() *wireSetup {
	out := *w
	out.wireCard = *w.wireCard.clone()
	return &out
}

// finish records the card's end (job.mu is held): every cell, what to use
// instead, the Markdown; or why it stopped.
func (job *setupJob) finish(card *report.SetupCard, err error, limit time.Duration) {
	job.running = false
	w := job.wire
	w.Running = false
	if card == nil {
		if err == nil {
			err = errors.New("setup: no card")
		}
		w.Error = cardError(err)
		return
	}
	grid := &report.Card{Columns: card.Columns, Rows: card.Rows}
	w.Rows, w.Columns, w.Setup = wireOf(grid), wireColumns(grid), card.Setup
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			if c.Kind != "" {
				job.cells[r.Algorithm+"/"+c.Column] = c
			}
		}
	}
	w.Done, w.Total = 0, len(card.Rows)*len(card.Columns)
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			if c.Kind != report.Unsearched && c.Kind != "" {
				w.Done++
			}
		}
	}
	for _, a := range card.Instead {
		p := report.Row{Algorithm: a.Algorithm}
		for _, r := range card.Rows {
			if r.Algorithm == a.Algorithm {
				p = *r
			}
		}
		w.Instead = append(w.Instead, wireAlternative{Lock: a.Algorithm, Name: report.Name(a.Algorithm), Everywhere: a.Everywhere,
			Fails: a.Fails, NA: a.NA, Holds: a.Holds, Sampled: a.Sampled, Trips: sim.Text{En: p.Trips("en"), Zh: p.Trips("zh")},
			Needs: p.NeedsText(), Difference: a.Difference, Code: a.Code})
	}
	w.Yours = card.Yours
	w.Unsearched = card.Unsearched
	w.Markdown = card.Markdown()
	if page, err := card.HTML(); err == nil {
		w.HTML = page
	}
	w.Cancelled = errors.Is(err, context.Canceled)
	switch {
	case w.Cancelled:
		w.Error = errorWire(coded("setup-cancelled", map[string]any{"n": w.Total - w.Done},
			"setup: cancelled; %d cells were not searched (?): they say nothing and give no advice", w.Total-w.Done))
	case card.Unsearched != nil || errors.Is(err, context.DeadlineExceeded):
		w.Error = errorWire(coded("setup-time", map[string]any{"max": limit.String(), "n": w.Total - w.Done},
			"setup: the card's time budget of %v ran out; %d cells were not searched (?): they say nothing and give no advice", limit, w.Total-w.Done))
	case err != nil:
		w.Error = cardError(err)
	}
}

// errorWire is an error as a message's error field carries it.
func errorWire(err error) *wireError {
	m := errorMessage(0, err)
	return &wireError{Code: m.Code, Args: m.Args, Error: m.Error}
}
