package report

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Text is the card for a user's setup as the command line prints it, in
// lang (en or zh): the setup, the grid of marks with the user's rows
// first, each lock's cells in words (✓ and ~ with their bound, ✗ with
// the id its counterexample replays as), then what to use instead, the
// user's acquire and release beside the first alternative's.
func (card *SetupCard) Text(lang string) string {
	var b strings.Builder
	say := func(t sim.Text) { b.WriteString(Pick(t, lang)) }
	say(fact.Say("report.setup.heading", card.Scenario, card.fileNote(lang), Pick(card.Setup, lang)))
	b.WriteString("\n\n")
	card.grid(&b, lang)
	b.WriteString("\n" + Pick(SetupLegend(), lang) + "\n")
	if card.Unsearched != nil {
		b.WriteString("\n" + Pick(*card.Unsearched, lang) + ".\n")
	}
	for _, c := range card.Columns {
		fmt.Fprintf(&b, "  %s: %s\n", Pick(c.Title, lang), Pick(c.What, lang))
	}
	b.WriteString("\n" + Pick(card.insteadText(), lang))
	card.codeText(&b, lang)
	for _, r := range card.Rows {
		name := r.Algorithm
		if r.Yours {
			name += Pick(fact.Say("report.setup.yours"), lang)
		}
		fmt.Fprintf(&b, "\n%s: %s\n", name, r.Title)
		fmt.Fprintf(&b, "  %s\n", Pick(fact.Say("report.trips-needs", r.Trips(lang), r.needsText(lang)), lang))
		for i, c := range r.Cells {
			fmt.Fprintf(&b, "  %s: %s", Pick(card.Columns[i].Title, lang), Pick(c.Text(r), lang))
			if c.Counterexample != nil {
				say(fact.Say("report.setup.replays-as", c.Counterexample.ID))
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  %s\n", Pick(r.Advice, lang))
	}
	if card.failures() > 0 {
		b.WriteString("\n" + Pick(card.ReplayHow(), lang) + "\n")
	}
	return b.String()
}

// codeText writes the user's acquire and release and the first
// alternative's, step by step, each piece of code under its file and
// line, indented, its tabs two spaces (the Markdown's side by side, in
// the terminal's few columns); nothing when either is missing.
func (card *SetupCard) codeText(b *strings.Builder, lang string) {
	if card.Yours == nil || len(card.Instead) == 0 || card.Instead[0].Code == nil {
		return
	}
	rec := card.Instead[0].Code
	fmt.Fprint(b, "\n"+Pick(fact.Say("report.setup.code-heading", rec.Algorithm), lang)+"\n")
	for _, step := range []struct {
		name sim.Text
		of   func(*StepCode) []Snippet
	}{
		{fact.Say("report.step-acquire"), func(c *StepCode) []Snippet { return c.Acquire }},
		{fact.Say("report.step-release"), func(c *StepCode) []Snippet { return c.Release }},
	} {
		fmt.Fprintf(b, "  %s\n", Pick(step.name, lang))
		for _, side := range []struct {
			who string
			c   *StepCode
		}{{Pick(fact.Say("report.setup.yours-word"), lang) + " (" + card.Yours.Algorithm + ")", card.Yours}, {rec.Algorithm, rec}} {
			for _, sn := range step.of(side.c) {
				fmt.Fprintf(b, "    %s · %s:%d\n", side.who, sn.File, sn.Line)
				for _, l := range strings.Split(strings.TrimRight(sn.Text, "\n"), "\n") {
					b.WriteString(strings.TrimRight("      "+strings.ReplaceAll(l, "\t", "  "), " ") + "\n")
				}
			}
		}
	}
}

// fileNote is " of FILE" when the card knows its file.
func (card *SetupCard) fileNote(lang string) string {
	if card.File == "" {
		return ""
	}
	return Pick(fact.Say("report.setup.file-note", card.File), lang)
}

// grid writes the marks: a row a lock, a column a fault, ✗ with its
// verdict.
func (card *SetupCard) grid(b *strings.Builder, lang string) {
	width := 0
	for _, r := range card.Rows {
		width = max(width, len(r.Algorithm)+len(" (yours)"))
	}
	// Column widths count a Chinese character as two.
	fmt.Fprintf(b, "%-*s", width+2, "")
	for _, c := range card.Columns {
		fmt.Fprintf(b, "%-15s", c.ID)
	}
	b.WriteString("\n")
	for _, r := range card.Rows {
		name := r.Algorithm
		if r.Yours {
			name += Pick(fact.Say("report.setup.yours-grid"), lang)
		}
		b.WriteString(name + strings.Repeat(" ", max(1, width+2-displayWidth(name))))
		for _, c := range r.Cells {
			b.WriteString(pad(Symbol(c.Kind), 15))
		}
		b.WriteString("\n")
	}
}

// SetupLegend says what each mark of the card for a setup means.
func SetupLegend() sim.Text {
	return fact.Say("report.setup.legend")
}

// insteadText is the section What to use instead.
func (card *SetupCard) insteadText() sim.Text {
	t := fact.Say("report.setup.instead")
	add := func(u sim.Text, then string) { t = sim.Text{En: t.En + u.En + then, Zh: t.Zh + u.Zh + then} }
	switch {
	case len(card.Instead) == 0:
		add(fact.Say("report.setup.instead-none"), "\n")
		return t
	case card.Instead[0].Everywhere:
		add(fact.Say("report.setup.instead-everywhere"), "\n")
	default:
		add(fact.Say("report.setup.instead-closest"), "\n")
	}
	for i, a := range card.Instead {
		fails := sim.Text{}
		if len(a.Fails) > 0 {
			fails = fact.Say("report.setup.fails", list(a.Fails))
		}
		if len(a.NA) > 0 {
			na := fact.Say("report.setup.na", list(a.NA))
			fails = sim.Text{En: fails.En + na.En, Zh: fails.Zh + na.Zh}
		}
		add(fact.Say("report.setup.instead-line", i+1, a.Algorithm, a.Holds, a.Sampled, fails, a.Difference), "\n")
	}
	return t
}

// failures counts the card's ✗ cells.
func (card *SetupCard) failures() int {
	n := 0
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			if c.Counterexample != nil {
				n++
			}
		}
	}
	return n
}

// ReplayHow says how to run the card's counterexamples.
func (card *SetupCard) ReplayHow() sim.Text {
	cmd := "visualizer report --file " + card.File + " --scenario " + card.Scenario + " --yaml > mine.yaml"
	return fact.Say("report.setup.replay-how", cmd)
}

// Counterexamples are every ✗ cell's shrunk schedule on the user's
// setup, and every example of a storage refusing a late write, as one
// scenario file: each expects the verdicts it replays to (visualizer test
// --file).
func (card *SetupCard) Counterexamples() *scenario.File {
	return (&Card{Rows: card.Rows}).Counterexamples()
}

// displayWidth is how many columns a terminal gives s: two for each
// wide (Chinese, full-width) character, one for any other.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF,
			r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6:
			n += 2
		default:
			n++
		}
	}
	return n
}
