package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// explore checks a search's budget and bounds.
func (c *validator) explore(s *Scenario, p string, sc *scope) {
	e := s.Explore
	if e == nil {
		return
	}
	ep := p + ".explore"
	if e.Steps < 0 {
		c.at(ep+".steps", fact.Say("scenario.steps-cannot-be-negative-got", e.Steps))
	}
	if e.Steps > MaxSteps {
		c.at(ep+".steps", fact.Say("scenario.steps-is-over-the-limit", e.Steps, MaxSteps))
	}
	if e.Horizon.D() > MaxHorizon {
		c.at(ep+".horizon", fact.Say("scenario.horizon-is-longer-than-the", fmtDuration(e.Horizon.D()), fmtDuration(MaxHorizon)))
	}
	if len(e.Faults) > MaxFaults {
		c.at(ep+".faults", fact.Say("scenario.too-many-budget-entries", len(e.Faults), MaxFaults))
		return
	}
	for i, b := range e.Faults {
		bp := fmt.Sprintf("%s.faults[%d]", ep, i)
		a, ok := sim.ActionOf(b.Do)
		if !ok || a.Search == sim.SearchNever {
			if b.Do == "" {
				c.at(bp+".do", fact.Say("scenario.budget-entry-needs-do-one", strings.Join(sim.SearchKinds, ", ")))
			} else {
				c.unknownName(bp+".do", "fault a search can place", b.Do, sim.SearchKinds)
			}
			continue
		}
		if b.Count < 0 || b.Count > MaxFaults {
			c.at(bp+".count", fact.Say("scenario.count-must-be-between-0", MaxFaults, b.Count))
		}
		if p := budgetMax(b); p.En != "" {
			c.at(bp+map[bool]string{true: "", false: ".max"}[a.Search == sim.SearchSized], p)
		}
		if b.Client != "" && a.Target == sim.TargetNode {
			c.at(bp+".client", fact.Say("scenario.hits-a-node-not-a", b.Do))
		} else if b.Client != "" && !slices.Contains(sc.clients, b.Client) {
			c.undeclared(bp+".client", "client", b.Client, sc.clients)
		}
		if !c.serviceNode(bp+".node", b.Node, sc.nodes) && b.Node != "" && !slices.Contains(sc.nodes, b.Node) {
			c.undeclared(bp+".node", "node", b.Node, sc.nodes)
		}
	}
}

// BudgetMaxProblem says what is wrong with a search budget entry's max,
// or "": a kind whose amount is required needs one, a kind the search
// places without an amount takes none. The scenario checker and the
// search both say it so.
func BudgetMaxProblem(b Budget) string { return budgetMax(b).En }

// budgetMax is BudgetMaxProblem in both languages.
func budgetMax(b Budget) sim.Text {
	a, _ := sim.ActionOf(b.Do)
	switch {
	case a.Search == sim.SearchSized && a.Required && b.Max <= 0:
		return fact.Say("scenario.needs-max-the-longest-it", b.Do)
	case a.Search != sim.SearchSized && b.Max != 0:
		return fact.Say("scenario.takes-no-max", b.Do)
	}
	return sim.Text{}
}
