package report

import (
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// phrase names each column's fault inside a sentence.
var phrase = map[string]sim.Text{
	"contention":    fact.Say("report.phrase.contention"),
	"lost-reply":    fact.Say("report.phrase.lost-reply"),
	"pause":         fact.Say("report.phrase.pause"),
	"pause-release": fact.Say("report.phrase.pause-release"),
	"crash":         fact.Say("report.phrase.crash"),
	"clock-jump":    fact.Say("report.phrase.clock-jump"),
	"restart":       fact.Say("report.phrase.restart"),
	"failover":      fact.Say("report.phrase.failover"),
	"partition":     fact.Say("report.phrase.partition"),
}

// Advice is the row's one sentence, read from its finished cells only:
// "never" when contention alone breaks the lock; otherwise the faults it
// survived (proven, or only sampled, which it says) as what it may be used
// against, and the faults that broke it as when never to use it. A cell
// the card's time limit stopped (Unsearched) gives no advice: the
// sentence names it as not searched, and a row without a finished cell
// gives none at all.
func Advice(row *Row) sim.Text {
	var fails, survives, open []sim.Text
	for _, c := range row.Cells {
		p := phrase[c.Column]
		switch {
		case c.Column == "contention" && c.Kind == Fails:
			return fact.Say("report.advice-never", c.Verdict)
		case c.Kind == Unsearched:
			open = append(open, p)
		case c.Column == "contention":
		case c.Kind == Fails:
			fails = append(fails, p)
		case c.Kind == Holds:
			survives = append(survives, p)
		case c.Kind == NotFound:
			survives = append(survives, fact.Say("report.sampled-not-proven", p))
		}
	}
	and, or := fact.Say("report.list-and"), fact.Say("report.list-or")
	var t sim.Text
	switch {
	case len(fails) == 0 && len(survives) == 0 && len(open) > 0:
		return fact.Say("report.advice-none", join(open, and))
	case len(fails) == 0 && len(open) == 0:
		return fact.Say("report.advice-any", proofNote(row))
	case len(fails) == 0:
		t = fact.Say("report.advice-fear", join(survives, and), isAre(survives), proofNote(row))
	case len(survives) == 0:
		t = fact.Say("report.advice-only-none", join(fails, or))
	default:
		t = fact.Say("report.advice-fear-never", join(survives, and), isAre(survives), join(fails, or))
	}
	if len(open) > 0 {
		more := fact.Say("report.advice-open", join(open, or))
		t = sim.Text{En: t.En + more.En, Zh: t.Zh + more.Zh}
	}
	return t
}

// isAre is the English verb after a list: " is" after one item, " are"
// after more.
func isAre(list []sim.Text) string {
	if len(list) == 1 {
		return " is"
	}
	return " are"
}

// proofNote says how many of a row's cells are proven and how many only
// sampled.
func proofNote(row *Row) sim.Text {
	h, n, open := counts(row)
	switch {
	case n == 0 && open > 0:
		return fact.Say("report.proof-searched-proven")
	case n == 0:
		return fact.Say("report.proof-all-proven")
	case h == 0:
		return fact.Say("report.proof-sampled")
	}
	return fact.Say("report.proof-some", h, n)
}

// counts are a row's cells proven (✓), sampled (~) and not searched to
// their end (?).
func counts(row *Row) (holds, sampled, open int) {
	for _, c := range row.Cells {
		switch c.Kind {
		case Holds:
			holds++
		case NotFound:
			sampled++
		case Unsearched:
			open++
		}
	}
	return holds, sampled, open
}

// join lists phrases in each language, the last joined by conj: "a, b
// and c".
func join(list []sim.Text, conj sim.Text) sim.Text {
	sep := fact.Say("report.list-separator")
	in := func(lang string) string {
		words := make([]string, len(list))
		for i, t := range list {
			words[i] = t.In(lang)
		}
		if len(words) == 1 {
			return words[0]
		}
		return strings.Join(words[:len(words)-1], sep.In(lang)) + conj.In(lang) + words[len(words)-1]
	}
	return sim.Text{En: in("en"), Zh: in("zh")}
}
