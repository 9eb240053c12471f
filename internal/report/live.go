package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// The kinds of a live row's cell: a sample of real-time runs on a live
// server (etcd, ZooKeeper), which the engine does not control and cannot
// search. Neither is a search's verdict: ✗ k/N says k of N real runs
// broke the lock, ✓ 0/N that none of N did (not a proof).
const (
	Broke    = "broke"    // ✗ k/N ◷: k of the N real-time runs broke the lock
	Unbroken = "unbroken" // ✓ 0/N ◷: no break in N real-time runs
)

// Clock is the mark of a cell decided by real-time runs, not a search.
const Clock = "◷"

// Sample says where and when a live row's runs ran: a live row cannot be
// recomputed identically (its server keeps time by its own clock), so it
// is stored with its tally and this, and checked by verdict class.
type Sample struct {
	Runs    int    `json:"runs"`    // real-time runs per cell
	Date    string `json:"date"`    // the day they ran, 2026-11-29
	Machine string `json:"machine"` // the machine: its platform, CPUs and Go
	Server  string `json:"server"`  // the server they ran on
	Took    string `json:"took"`    // the row's wall-clock time
}

// Tally is how many runs of a live cell ended with these verdicts.
type Tally struct {
	Verdicts []string `json:"verdicts"`
	Runs     int      `json:"runs"`
}

// Mark is a cell's mark on the grid: for a live cell the tally and the
// real-time sign ("✗ 5/5 ◷", "✓ 0/5 ◷"), else its kind's Symbol.
func (c *Cell) Mark() string {
	switch c.Kind {
	case Broke:
		return fmt.Sprintf("✗ %d/%d %s", c.Broken, c.Runs, Clock)
	case Unbroken:
		return fmt.Sprintf("✓ 0/%d %s", c.Runs, Clock)
	}
	return Symbol(c.Kind)
}

// Name is how the card names a row: its lock's id, and for a live row
// the write it makes ("etcd-mutex (Put)").
func (r *Row) Name() string {
	if r.Variant == "" {
		return r.Algorithm
	}
	return r.Algorithm + " (" + r.Variant + ")"
}

// anchor is the row's heading's anchor in docs/choosing-a-lock.md.
func (r *Row) anchor() string {
	s := strings.ToLower(r.Name())
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-':
			b.WriteRune(c)
		case c == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// liveText says what a live cell's runs found, in both languages; for a
// row judged at its storage, that two inside at once is not a break.
func (c *Cell) liveText(row *Row) sim.Text {
	at := sim.Text{}
	if c.Placement != nil {
		at = *c.Placement
	}
	tally := make([]string, len(c.Tally))
	for i, t := range c.Tally {
		tally[i] = fmt.Sprintf("%s ×%d", strings.Join(t.Verdicts, ", "), t.Runs)
	}
	sep := fact.Say("report.live.tally-separator")
	ended := sim.Text{En: strings.Join(tally, sep.En), Zh: strings.Join(tally, sep.Zh)}
	if c.Kind == Broke {
		return fact.Say("report.live.broke", Clock, c.Broken, c.Runs, c.Verdict, at, ended)
	}
	t := fact.Say("report.live.unbroken", Clock, c.Runs, at, ended)
	twoInside := false
	for _, x := range c.Tally {
		twoInside = twoInside || slices.Contains(x.Verdicts, sim.VerdictMutualExclusion)
	}
	if row != nil && row.Storage && twoInside {
		t = and(t, fact.Say("report.live.judged-at-resource"))
	}
	return t
}

// LiveLegend says what a live row's marks mean.
func LiveLegend() sim.Text {
	return fact.Say("report.live.legend", Clock)
}

// checkLive holds a stored card's live rows to the shape a live row has:
// the code's columns, every cell decided by runs, not applicable with a
// reason, or not run with one.
func checkLive(rows []*Row) error {
	for _, r := range rows {
		if r.Sample == nil || r.Sample.Runs <= 0 || r.Sample.Date == "" || r.Sample.Machine == "" {
			return fmt.Errorf("report: the stored card's live row %s says not where and when it ran", r.Name())
		}
		if len(r.Cells) != len(Columns) {
			return fmt.Errorf("report: the stored card's live row %s has %d cells, the code %d columns", r.Name(), len(r.Cells), len(Columns))
		}
		for j, c := range r.Cells {
			if err := checkLiveCell(r, c, Columns[j].ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkLiveCell holds one live cell to its kind's shape.
func checkLiveCell(r *Row, c *Cell, column string) error {
	bad := func(why string) error {
		return fmt.Errorf("report: the stored card's live cell %s/%s %s", r.Name(), column, why)
	}
	if c == nil || c.Column != column {
		return bad("is not the code's column")
	}
	switch c.Kind {
	case Broke, Unbroken:
		n := 0
		for _, t := range c.Tally {
			n += t.Runs
		}
		if c.Runs <= 0 || n != c.Runs || c.Placement == nil {
			return bad("has no tally of its runs")
		}
		if c.Kind == Broke && (c.Broken <= 0 || c.Broken > c.Runs || c.Verdict == "") || c.Kind == Unbroken && c.Broken != 0 {
			return bad("has a tally its kind does not say")
		}
	case NA, Unsearched:
		if c.Why == nil {
			return bad("says not why it has no runs")
		}
	default:
		return bad("is of kind " + c.Kind + ", which no real-time run decides")
	}
	return nil
}

// LiveRow finds the live rows of a lock.
func (card *Card) LiveRows(algorithm string) []*Row {
	var out []*Row
	for _, r := range card.Live {
		if r.Algorithm == algorithm {
			out = append(out, r)
		}
	}
	return out
}

// liveMarkdown is docs/choosing-a-lock.md's section on the live rows:
// how they are computed and kept, their grid, and each row's cells.
func (card *Card) liveMarkdown(b *strings.Builder) {
	if len(card.Live) == 0 {
		return
	}
	h, how, lock := fact.Say("report.live.heading"), fact.Say("report.live.how"), fact.Say("report.md.lock")
	b.WriteString("## " + h.En + " · " + h.Zh + "\n\n")
	b.WriteString(how.En + "\n\n" + how.Zh + "\n\n")
	b.WriteString("| " + lock.En + " · " + lock.Zh + " |")
	for _, c := range card.Columns {
		fmt.Fprintf(b, " %s<br>%s |", c.Title.En, c.Title.Zh)
	}
	b.WriteString("\n|---|")
	for range card.Columns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range card.Live {
		fmt.Fprintf(b, "| [`%s`](#%s) |", r.Name(), r.anchor())
		for _, c := range r.Cells {
			mark := c.Mark()
			if c.Kind == Broke {
				mark += " " + strings.Join(c.Verdicts, ", ")
			}
			fmt.Fprintf(b, " %s |", mark)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + LiveLegend().En + "\n\n" + LiveLegend().Zh + "\n")
	runsDid := fact.Say("report.live.runs-did")
	for _, r := range card.Live {
		fmt.Fprintf(b, "\n### %s\n\n%s\n\n", r.Name(), mdEscape(r.Title))
		fmt.Fprintf(b, "- **%s**\n  %s\n", mdEscape(r.Advice.En), mdEscape(r.Advice.Zh))
		fmt.Fprintf(b, "- %s\n", both(fact.Say("report.md.needs", r.mdNeeds())))
		s := r.Sample
		fmt.Fprintf(b, "- %s\n\n", both(fact.Say("report.live.sample", s.Runs, s.Server, s.Date, s.Machine, s.Took)))
		fmt.Fprintf(b, "| %s | %s | %s |\n|---|---|---|\n", both(fact.Say("report.md.fault")), runsDid.En, runsDid.Zh)
		for i, c := range r.Cells {
			t := c.Text(r)
			fmt.Fprintf(b, "| %s · %s | %s | %s |\n", card.Columns[i].Title.En, card.Columns[i].Title.Zh, mdEscape(t.En), mdEscape(t.Zh))
		}
	}
	b.WriteString("\n")
}

// liveNames are the live locks as the card names them.
var liveNames = map[string]sim.Text{
	"etcd-mutex":     fact.Say("report.live.name.etcd-mutex"),
	"zookeeper-lock": fact.Say("report.live.name.zookeeper-lock"),
}

// IsLive reports whether a lock's row is decided by real-time runs.
func IsLive(algorithm string) bool { _, ok := liveNames[algorithm]; return ok }

// LiveIDs are the locks whose rows are real-time runs.
func LiveIDs() []string {
	var out []string
	for id := range liveNames {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// liveText is the live rows as the command line prints them, in lang:
// their grid, their legend, then each row's cells in words.
func (card *Card) liveText(b *strings.Builder, lang string) {
	if len(card.Live) == 0 {
		return
	}
	b.WriteString("\n" + Pick(fact.Say("report.live.text-heading"), lang) + "\n\n")
	width := 0
	for _, r := range card.Live {
		width = max(width, len([]rune(r.Name())))
	}
	fmt.Fprintf(b, "%-*s", width+2, "")
	for _, c := range card.Columns {
		fmt.Fprintf(b, "%-12s", c.ID)
	}
	b.WriteString("\n")
	for _, r := range card.Live {
		b.WriteString(pad(r.Name(), width+2))
		for _, c := range r.Cells {
			b.WriteString(pad(c.Mark(), 12))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + Pick(LiveLegend(), lang) + "\n")
	for _, r := range card.Live {
		s := r.Sample
		fmt.Fprintf(b, "\n%s: %s\n", r.Name(), r.Title)
		fmt.Fprintf(b, "  %s\n", Pick(fact.Say("report.live.sample-needs", s.Runs, s.Server, s.Date, s.Machine, s.Took, r.needsText(lang)), lang))
		for i, c := range r.Cells {
			fmt.Fprintf(b, "  %s: %s\n", Pick(card.Columns[i].Title, lang), Pick(c.Text(r), lang))
		}
		fmt.Fprintf(b, "  %s\n", Pick(r.Advice, lang))
	}
}

// LiveText is the live rows alone as the command line prints them (a
// card of live locks only: visualizer report --only etcd-mutex).
func (card *Card) LiveText(lang string) string {
	var b strings.Builder
	card.liveText(&b, lang)
	return strings.TrimPrefix(b.String(), "\n")
}

// LiveMarkdown is the live rows alone as docs/choosing-a-lock.md writes
// them.
func (card *Card) LiveMarkdown() string {
	var b strings.Builder
	card.liveMarkdown(&b)
	return b.String()
}
