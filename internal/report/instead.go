package report

import (
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Alternative is a lock the card for a user's setup proposes in place of
// theirs, with what it costs and how it differs from their code.
type Alternative struct {
	Algorithm string `json:"algorithm"`
	Catalog   int    `json:"catalog"`
	// Everywhere: it holds (✓ or ~) in every column of the card.
	// When no lock does, the closest are listed with the columns they
	// fail (Fails).
	Everywhere bool     `json:"everywhere"`
	Fails      []string `json:"fails,omitempty"`
	// NA are the columns whose fault the card could not put on it (n/a,
	// with the reason in its cell): it neither holds nor fails there.
	NA      []string   `json:"na,omitempty"`
	Holds   int        `json:"holds"`   // its ✓ cells (proven within the bound)
	Sampled int        `json:"sampled"` // its ~ cells (sampled, not proven)
	Acquire int        `json:"acquire"` // round trips of an acquire
	Release int        `json:"release"` // round trips of a release
	Needs   []sim.Text `json:"needs"`
	// Extra counts what it needs beyond one Redis node (a storage that
	// checks fencing tokens, several masters, an SQL database): the first
	// key of the ranking.
	Extra      int      `json:"extra"`
	Difference sim.Text `json:"difference"`
	// Code is its acquire and release, to set beside the user's
	// (SetupCard.Yours); nil when it cannot be read.
	Code *StepCode `json:"code,omitempty"`
}

// closest is how many locks What to use instead lists when none holds in
// every column.
const closest = 3

// Instead ranks the locks that are not the user's (rows not Yours) and
// hold in every column: first by what they need beyond one Redis node
// (nothing, then a fencing storage, several masters, an SQL database: a
// lock that needs what the user lacks is the larger change), then by
// round trips (acquire plus release), then proven (✓) before sampled
// (~), then by catalog row. A lock a column's fault could not be put on
// (n/a) does not hold everywhere: it is among the closest, after those
// with fewer failing and n/a columns. A row with a cell not searched to its end
// (?) is never proposed: the card knows nothing of that column. When no
// lock holds everywhere, the closest are given: fewest failing columns
// first, then the same order.
func Instead(rows []*Row) []Alternative {
	var yours *Row
	for _, r := range rows {
		if r.Yours {
			yours = r
			break
		}
	}
	var all []Alternative
	for _, r := range rows {
		if r.Yours || !r.Probe.Network || !r.Probe.Locks && !r.Probe.Watch {
			continue // theirs, a lock in one process's memory, or no lock at all
		}
		alt, ok := alternative(r, yours)
		if ok {
			all = append(all, alt)
		}
	}
	slices.SortStableFunc(all, func(a, b Alternative) int {
		switch {
		case len(a.Fails) != len(b.Fails):
			return len(a.Fails) - len(b.Fails)
		case len(a.NA) != len(b.NA):
			return len(a.NA) - len(b.NA)
		case a.Extra != b.Extra:
			return a.Extra - b.Extra
		case a.Acquire+a.Release != b.Acquire+b.Release:
			return a.Acquire + a.Release - b.Acquire - b.Release
		case a.Holds != b.Holds:
			return b.Holds - a.Holds
		}
		return a.Catalog - b.Catalog
	})
	n := 0
	for n < len(all) && all[n].Everywhere {
		n++
	}
	if n > 0 {
		return all[:n]
	}
	return all[:min(closest, len(all))]
}

// alternative reads a row as an alternative to yours (nil: the user's
// scenario runs no lock of its own row); false when a cell of it was not
// searched to its end.
func alternative(r *Row, yours *Row) (Alternative, bool) {
	p := r.Probe
	alt := Alternative{Algorithm: r.Algorithm, Catalog: r.Catalog, Acquire: p.Acquire, Release: p.Release, Needs: r.Needs, Extra: extra(p)}
	for _, c := range r.Cells {
		switch c.Kind {
		case Unsearched, "":
			return alt, false
		case Fails:
			alt.Fails = append(alt.Fails, c.Column)
		case Holds:
			alt.Holds++
		case NotFound:
			alt.Sampled++
		case NA:
			alt.NA = append(alt.NA, c.Column)
		}
	}
	// n/a is no proof: a lock the card could not put a chosen fault on
	// is among the closest, with the column named, never "everywhere".
	alt.Everywhere = len(alt.Fails) == 0 && len(alt.NA) == 0
	if yours != nil {
		alt.Difference = difference(r, yours)
	}
	return alt, true
}

// extra counts what a lock needs beyond one Redis node.
func extra(p *Probe) int {
	n := 0
	for _, need := range []bool{p.Tokens, p.Masters > 1, p.SQL} {
		if need {
			n++
		}
	}
	return n
}

// difference says in a sentence how lock r differs from the user's lock
// yours, from what each sent in its run alone: the commands of an
// acquire and of a release, the round trips, and what it needs beyond.
func difference(r, yours *Row) sim.Text {
	p, q := r.Probe, yours.Probe
	var en, zh []string
	if !p.Locks {
		return fact.Say("report.instead-no-lock")
	}
	add := func(t sim.Text) { en, zh = append(en, t.En), append(zh, t.Zh) }
	step := func(what sim.Text, theirs, mine []string) {
		if slices.Equal(theirs, mine) {
			add(fact.Say("report.step-same", what, sent(theirs)))
			return
		}
		add(fact.Say("report.step-differs", what, sent(theirs), sent(mine)))
	}
	step(fact.Say("report.step-acquire"), p.AcquireSent, q.AcquireSent)
	step(fact.Say("report.step-release"), p.ReleaseSent, q.ReleaseSent)
	trips := func(r *Row) sim.Text { return sim.Text{En: r.Trips("en"), Zh: r.Trips("zh")} }
	add(fact.Say("report.trips-yours", trips(r), trips(yours)))
	if extra(p) > 0 {
		add(fact.Say("report.needs", r.NeedsText()))
	}
	return sim.Text{En: strings.Join(en, "; "), Zh: strings.Join(zh, "；")}
}

// sent writes the commands of a step: "SET", "GET, DEL", or nothing.
func sent(cmds []string) sim.Text {
	if len(cmds) == 0 {
		return fact.Say("report.sent-nothing")
	}
	all := strings.Join(cmds, ", ")
	return sim.Text{En: all, Zh: all}
}
