package server

import (
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Check my lock's short form (op setup-form): the choices it offers (the
// catalog's locks, the card's fault columns) and, for a form filled in,
// the scenario file it makes (scenario.FormYAML), which the page shows in
// its editor and checks with setup, the columns ticked as its faults.

// wireForm answers setup-form.
type wireForm struct {
	// YAML is the form's scenario file, Scenario its id ("" when the
	// request had no form: only the choices).
	YAML     string           `json:"yaml,omitempty"`
	Scenario string           `json:"scenario,omitempty"`
	Locks    []wireFormChoice `json:"locks"`
	Columns  []wireFormChoice `json:"columns"`
}

// wireFormChoice is a lock or a fault column the form offers.
type wireFormChoice struct {
	ID   string    `json:"id"`
	Name sim.Text  `json:"name"`
	What *sim.Text `json:"what,omitempty"` // a column: its fault in a sentence
}

// setupForm answers setup-form: the choices, and the file of r.Form when
// it is given, or the error that names the form's field that is wrong.
func setupForm(r *Request) (*Message, error) {
	w := &wireForm{}
	for _, a := range lock.Algorithms {
		w.Locks = append(w.Locks, wireFormChoice{ID: a.ID, Name: report.Name(a.ID)})
	}
	for _, c := range report.SetupColumns(report.Lease) {
		what := c.What
		w.Columns = append(w.Columns, wireFormChoice{ID: c.ID, Name: c.Title, What: &what})
	}
	if r.Form != nil {
		y, err := scenario.FormYAML(*r.Form)
		var fe *scenario.FormError
		if errors.As(err, &fe) {
			return nil, badArg("setup-form", fe.Field, fe.Words())
		}
		if err != nil {
			return nil, err
		}
		w.YAML, w.Scenario = y, scenario.FormID
	}
	return &Message{Type: "setup-form", Form: w}, nil
}

// setupFaults checks the fault columns a setup request asks for: each
// one of the card's, at most once.
func setupFaults(faults []string) error {
	ids := []string{}
	for _, c := range report.SetupColumns(report.Lease) {
		ids = append(ids, c.ID)
	}
	for i, f := range faults {
		if !slices.Contains(ids, f) {
			return badArg("setup", "faults", fact.Say("server.unknown-fault-column-give-some-of", short(f), strings.Join(ids, ", ")))
		}
		if slices.Contains(faults[:i], f) {
			return badArg("setup", "faults", fact.Say("server.fault-column-is-given-twice", short(f)))
		}
	}
	return nil
}

// setupColumns are the columns a card searches: those the request chose
// (none: every one), within the server's own limit when it has one.
func setupColumns(chosen, server []string) []string {
	switch {
	case len(chosen) == 0:
		return server
	case server == nil:
		return chosen
	}
	var out []string
	for _, c := range chosen {
		if slices.Contains(server, c) {
			out = append(out, c)
		}
	}
	return out
}
