package report

import (
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Symbol is a cell kind's mark: ✗, ✓, ~, ? or n/a.
func Symbol(kind string) string {
	switch kind {
	case Fails:
		return "✗"
	case Holds:
		return "✓"
	case NotFound:
		return "~"
	case Unsearched:
		return "?"
	}
	return "n/a"
}

// Text says what a cell found, in one line of each language: the
// verdict and how the counterexample was found (✗), the count of
// schedules and the bound (✓), the count and that it is not a proof (~),
// that its search was stopped before its end and says nothing (?), or why
// the fault does not apply (n/a).
func (c *Cell) Text(row *Row) sim.Text {
	switch c.Kind {
	case Fails:
		entries := len(c.Counterexample.Schedule) + extraFaults(c)
		story := sim.Text{}
		if c.Story != nil {
			story = *c.Story
		}
		return fact.Say("report.cell-fails", c.Verdict, story, c.FoundAt, strategy(c.Strategy),
			entries, noun(entries, "move or fault", "moves and faults"), strings.Join(c.Verdicts, ", "))
	case Holds:
		schedules := noun(c.Schedules, "schedule", "schedules")
		t := fact.Say("report.cell-holds", c.Schedules, schedules)
		if row != nil && row.Bound != nil {
			t = fact.Say("report.cell-holds-within", *row.Bound, c.Schedules, schedules)
		}
		return and(t, c.storageNote(row))
	case NotFound:
		schedules := noun(c.Schedules, "sampled schedule", "sampled schedules")
		t := fact.Say("report.cell-not-found", c.Schedules, schedules, strategy(c.Strategy))
		if row != nil && row.Bound != nil {
			t = fact.Say("report.cell-not-found-within", *row.Bound, c.Schedules, schedules, strategy(c.Strategy))
		}
		return and(t, c.storageNote(row))
	case Broke, Unbroken:
		return c.liveText(row)
	case Unsearched:
		why := sim.Text{}
		if c.Why != nil {
			why = *c.Why
		}
		if row != nil && row.Sample != nil {
			return fact.Say("report.cell-not-run", why)
		}
		return fact.Say("report.cell-unsearched", why)
	}
	return fact.Say("report.cell-na", *c.Why)
}

// storageNote says, for a lock judged at its storage, that two clients
// were inside at once and the storage refused the late write, and what
// the ✓ does not cover: a late write that reaches the storage before the
// new holder's first is accepted (docs/verdicts.md), which a fault of
// another size (a pause just past the lease) can stage.
func (c *Cell) storageNote(row *Row) sim.Text {
	if row == nil || !row.Storage || c.Example == nil {
		return sim.Text{}
	}
	return fact.Say("report.storage-note")
}

// and joins a clause to a text with "; " (nothing when it is empty).
func and(t, u sim.Text) sim.Text {
	if u.En == "" {
		return t
	}
	return sim.Text{En: t.En + "; " + u.En, Zh: t.Zh + "；" + u.Zh}
}

// extraFaults counts the faults of a counterexample placed on marks (they
// live among its scripted faults, not in its schedule).
func extraFaults(c *Cell) int {
	n := 0
	for _, f := range c.Counterexample.Faults {
		if f.On != nil {
			n++
		}
	}
	return n
}

// strategy names a search's strategy: its flag's word in English, the
// search it names in Chinese.
func strategy(s string) fact.Text {
	switch s {
	case "exhaustive":
		return fact.Say("report.strategy-exhaustive")
	case "random":
		return fact.Say("report.strategy-random")
	}
	return fact.Text{En: s, Zh: s}
}

// noun is one when n is 1, else many.
func noun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// list joins items as each language lists them, with its own separator.
func list(items []string) fact.Text {
	sep := fact.Say("report.list-separator")
	return fact.Text{En: strings.Join(items, sep.En), Zh: strings.Join(items, sep.Zh)}
}
