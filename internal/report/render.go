package report

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Bound is what every cell's search is bounded by, beside its column's
// fault.
func Bound() sim.Text {
	return fact.Say("report.bound-every-cell", Lease, Retry, Work, Timeout, Horizon, ScheduleSteps)
}

// Trips gives a row's round trips per acquire and release: "1 / 1",
// "1 (3 commands) / 1 (3 commands)", or "—" for no lock.
func (r *Row) Trips(lang string) string {
	p := r.Probe
	if !p.Locks || !p.Network {
		return "—"
	}
	one := func(trips, cmds int) string {
		if cmds == trips {
			return fmt.Sprint(trips)
		}
		return Pick(fact.Say("report.trips-commands", trips, cmds), lang)
	}
	return one(p.Acquire, p.AcquireCommands) + " / " + one(p.Release, p.ReleaseCommands)
}

// Pick gives a text in lang (zh, or else English).
func Pick(t sim.Text, lang string) string {
	if lang == "zh" {
		return t.Zh
	}
	return t.En
}

// needsText lists a row's needs in one language.
func (r *Row) needsText(lang string) string {
	parts := make([]string, len(r.Needs))
	for i, n := range r.Needs {
		parts[i] = Pick(n, lang)
	}
	sep := "; "
	if lang == "zh" {
		sep = "；"
	}
	return strings.Join(parts, sep)
}

// Text is the card as the command line prints it, in lang (en or zh):
// the grid of marks, the legend, then each lock with its cells in words.
func (card *Card) Text(lang string) string {
	var b strings.Builder
	b.WriteString(Pick(fact.Say("report.text-heading"), lang) + "\n\n")
	width := 0
	for _, r := range card.Rows {
		width = max(width, len(r.Algorithm))
	}
	fmt.Fprintf(&b, "%-*s", width+2, "")
	for _, c := range card.Columns {
		fmt.Fprintf(&b, "%-12s", c.ID)
	}
	b.WriteString("\n")
	for _, r := range card.Rows {
		fmt.Fprintf(&b, "%-*s", width+2, r.Algorithm)
		for _, c := range r.Cells {
			b.WriteString(pad(Symbol(c.Kind), 12))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + Pick(Legend(), lang) + "\n")
	if card.Unsearched != nil {
		b.WriteString("\n" + Pick(*card.Unsearched, lang) + ".\n")
	}
	b.WriteString("\n" + Pick(fact.Say("report.every-cell"), lang) + Pick(Bound(), lang) + ".\n")
	for _, c := range card.Columns {
		fmt.Fprintf(&b, "  %s: %s\n", Pick(c.Title, lang), Pick(c.What, lang))
	}
	for _, r := range card.Rows {
		row := Pick(fact.Say("report.catalog-row", r.Catalog), lang)
		fmt.Fprintf(&b, "\n%s (%s): %s\n", r.Algorithm, row, r.Title)
		fmt.Fprintf(&b, "  %s\n", Pick(fact.Say("report.trips-needs", r.Trips(lang), r.needsText(lang)), lang))
		for i, c := range r.Cells {
			fmt.Fprintf(&b, "  %s: %s\n", Pick(card.Columns[i].Title, lang), Pick(c.Text(r), lang))
		}
		fmt.Fprintf(&b, "  %s\n", Pick(r.Advice, lang))
	}
	card.liveText(&b, lang)
	return b.String()
}

// Legend says what each mark means.
func Legend() sim.Text {
	return fact.Say("report.legend")
}

// pad pads s to n columns (the marks are one column wide).
func pad(s string, n int) string {
	w := len([]rune(s))
	if w >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-w)
}

// Counterexamples are every ✗ cell's shrunk schedule, and every example
// of a storage refusing a late write, as one scenario file: each replays
// to the verdicts it expects (visualizer test --file).
func (card *Card) Counterexamples() *scenario.File {
	f := &scenario.File{}
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			if c.Counterexample != nil {
				f.Scenarios = append(f.Scenarios, *c.Counterexample)
			}
			if c.Example != nil {
				f.Scenarios = append(f.Scenarios, *c.Example)
			}
		}
	}
	return f
}

// Find gives the cell of a lock and a column.
func (card *Card) Find(algorithm, column string) (*Row, *Cell) {
	for _, r := range card.Rows {
		if r.Algorithm != algorithm {
			continue
		}
		for _, c := range r.Cells {
			if c.Column == column {
				return r, c
			}
		}
	}
	return nil, nil
}

// NeedsText lists what the row needs, in both languages.
func (r *Row) NeedsText() sim.Text { return sim.Text{En: r.needsText("en"), Zh: r.needsText("zh")} }
