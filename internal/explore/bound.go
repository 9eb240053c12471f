package explore

import (
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Bound says, in English and Chinese, what a search of sc with opt covers:
// the fault budget and the sizes it tries, where client faults may land,
// which moves it reorders, and each schedule's virtual time and engine
// steps. A "no violation within the bound" means within this, and
// nothing more; with no budget it says that only the order of tied moves
// was searched.
func Bound(sc *scenario.Scenario, opt Options) (sim.Text, error) {
	e := opt.Budget
	if e == nil {
		e = sc.Explore
	}
	b, err := resolve(sc, e)
	if err != nil {
		return sim.Text{}, err
	}
	var parts []sim.Text
	if len(b.budget) == 0 {
		parts = append(parts, fact.Say("explore.bound.no-fault"))
	}
	for _, bu := range b.budget {
		sizes := ""
		if bu.Max > 0 {
			ls := levels(bu.Max.D(), opt.Exact)
			parts := make([]string, len(ls))
			for i, l := range ls {
				parts[i] = sim.FormatTime(l)
			}
			sizes = strings.Join(parts, ", ")
		}
		n := bu.Count
		kind, _ := sim.ActionOf(bu.Do)
		switch {
		case sizes != "":
			parts = append(parts, fact.Say("explore.bound.sized", n, bu.Do, sizes))
		case kind.Search == sim.SearchSized && !kind.Required: // without a max, it lasts
			parts = append(parts, fact.Say("explore.bound.for-good", n, bu.Do))
		default:
			parts = append(parts, fact.Say("explore.bound.count", n, bu.Do))
		}
	}
	if len(opt.Marks) > 0 && len(b.budget) > 0 {
		parts = append(parts, fact.Say("explore.bound.marks", strings.Join(opt.Marks, ", ")))
	}
	if b.window > 0 {
		parts = append(parts, fact.Say("explore.bound.window", sim.FormatTime(b.window)))
	} else {
		parts = append(parts, fact.Say("explore.bound.same-instant"))
	}
	parts = append(parts, fact.Say("explore.bound.horizon", sim.FormatTime(b.horizon), b.steps))
	return joinTexts(parts, fact.Say("explore.bound.separator")), nil
}

// joinTexts joins parts in each language with that language's sep.
func joinTexts(parts []sim.Text, sep sim.Text) sim.Text {
	en, zh := make([]string, len(parts)), make([]string, len(parts))
	for i, p := range parts {
		en[i], zh[i] = p.En, p.Zh
	}
	return sim.Text{En: strings.Join(en, sep.En), Zh: strings.Join(zh, sep.Zh)}
}
