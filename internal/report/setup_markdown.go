package report

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Markdown is the card for a user's setup in English and Chinese, for a
// design review: the setup, the grid, what to use instead, then each
// lock's cells in words with the id its counterexample replays as.
func (card *SetupCard) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", both(fact.Say("report.setup.card-for", card.Scenario)))
	if card.File != "" {
		fmt.Fprintf(&b, "%s：`%s`\n\n", both(fact.Say("report.setup.file-word")), card.File)
	}
	fmt.Fprintf(&b, "%s.\n\n%s。\n\n", mdEscape(card.Setup.En), mdEscape(card.Setup.Zh))
	trips := fact.Say("report.md.round-trips")
	b.WriteString("| " + both(fact.Say("report.md.lock")) + " |")
	for _, c := range card.Columns {
		fmt.Fprintf(&b, " %s<br>%s |", c.Title.En, c.Title.Zh)
	}
	fmt.Fprintf(&b, " %s<br>%s |\n|---|", trips.En, trips.Zh)
	for range card.Columns {
		b.WriteString("---|")
	}
	b.WriteString("---|\n")
	yours := fact.Say("report.setup.yours-word")
	for _, r := range card.Rows {
		name := "`" + r.Algorithm + "`"
		if r.Yours {
			name = "**" + name + " (" + both(yours) + ")**"
		}
		fmt.Fprintf(&b, "| %s |", name)
		for _, c := range r.Cells {
			mark := Symbol(c.Kind)
			if c.Kind == Fails {
				mark += " " + c.Verdict
			}
			fmt.Fprintf(&b, " %s |", mark)
		}
		fmt.Fprintf(&b, " %s |\n", r.Trips("en"))
	}
	b.WriteString("\n" + SetupLegend().En + "\n\n" + SetupLegend().Zh + "\n\n")
	if card.Unsearched != nil {
		b.WriteString("**" + card.Unsearched.En + ".**\n\n**" + card.Unsearched.Zh + "。**\n\n")
	}
	t := card.insteadText()
	b.WriteString("## " + mdLines(t.En) + "\n## " + mdLines(t.Zh) + "\n")
	if len(card.Instead) > 0 && card.Yours != nil && card.Instead[0].Code != nil {
		mdSideBySide(&b, card.Yours, card.Instead[0].Code)
	}
	b.WriteString("## " + both(fact.Say("report.md.lock-by-lock")) + "\n")
	for _, r := range card.Rows {
		fmt.Fprintf(&b, "\n### %s\n\n%s\n\n", r.Algorithm, mdEscape(r.Title))
		fmt.Fprintf(&b, "- **%s**\n  %s\n", mdEscape(r.Advice.En), mdEscape(r.Advice.Zh))
		mdTripsNeeds(&b, r)
		mdCells(&b, card.Columns, r)
	}
	if card.failures() > 0 {
		h := card.ReplayHow()
		b.WriteString("\n" + mdEscape(h.En) + ".\n\n" + mdEscape(h.Zh) + "。\n")
	}
	return b.String()
}

// mdLines turns the text of What to use instead into a heading and a
// list: its first line the heading, each further line an item.
func mdLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	out := lines[0] + "\n\n"
	for _, l := range lines[1:] {
		out += "- " + mdEscape(strings.TrimSpace(l)) + "\n"
	}
	return out + "\n"
}

// mdSideBySide writes the user's acquire and release beside the
// recommended lock's: step by step, theirs then the recommended one
// (Markdown has no columns; the HTML page sets them side by side).
func mdSideBySide(b *strings.Builder, yours, rec *StepCode) {
	b.WriteString("## " + both(fact.Say("report.setup.side-by-side")) + "\n")
	for _, step := range []struct {
		name sim.Text
		of   func(*StepCode) []Snippet
	}{
		{fact.Say("report.setup.acquire-title"), func(c *StepCode) []Snippet { return c.Acquire }},
		{fact.Say("report.setup.release-title"), func(c *StepCode) []Snippet { return c.Release }},
	} {
		fmt.Fprintf(b, "\n### %s\n", both(step.name))
		for _, side := range []struct {
			name sim.Text
			c    *StepCode
		}{{fact.Say("report.setup.yours-word"), yours}, {fact.Say("report.setup.recommended-word"), rec}} {
			fmt.Fprintf(b, "\n**%s: `%s`**\n", both(side.name), side.c.Algorithm)
			for _, s := range step.of(side.c) {
				fmt.Fprintf(b, "\n`%s:%d`\n\n````%s\n%s\n````\n", s.File, s.Line, fence(s.File), strings.TrimRight(s.Text, "\n"))
			}
		}
	}
	b.WriteString("\n")
}

// fence is the language of a code block by its file's extension.
func fence(file string) string {
	switch {
	case strings.HasSuffix(file, ".go"):
		return "go"
	case strings.HasSuffix(file, ".lua"):
		return "lua"
	case strings.HasSuffix(file, ".yaml"):
		return "yaml"
	}
	return ""
}
