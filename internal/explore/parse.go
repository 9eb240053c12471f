package explore

import (
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// ParseBudget reads a fault budget written on one line, as the command
// line takes it: entries separated by commas, each KIND[=COUNT][:MAX],
// e.g. "pause:5s", "clock-jump=3:10s,drop-reply,partition=2". KIND is one
// of sim.SearchKinds; COUNT defaults to 1. A node crash's or a
// partition's MAX, if given, is the longest it lasts (without one, the
// node stays down, the link cut).
func ParseBudget(s string) ([]scenario.Budget, error) {
	var out []scenario.Budget
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		b := scenario.Budget{Count: 1}
		rest, size, hasMax := strings.Cut(part, ":")
		kind, count, hasCount := strings.Cut(rest, "=")
		b.Do = kind
		if !containsStr(sim.SearchKinds, kind) {
			return nil, budgetErr(fact.Say("explore.budget.unknown-fault", part, kind, strings.Join(sim.SearchKinds, ", ")))
		}
		if hasCount {
			n, err := strconv.Atoi(count)
			if err != nil || n < 1 || n > scenario.MaxFaults {
				return nil, budgetErr(fact.Say("explore.budget.bad-count", part, count, scenario.MaxFaults))
			}
			b.Count = n
		}
		if hasMax {
			d, err := time.ParseDuration(size)
			if err != nil || d <= 0 || d > scenario.MaxDuration {
				return nil, budgetErr(fact.Say("explore.budget.bad-max", part, size, scenario.MaxDuration))
			}
			b.Max = scenario.Duration(d)
		}
		needMax, mayMax := sized(b.Do)
		if needMax && !hasMax {
			return nil, budgetErr(fact.Say("explore.budget.needs-max", part, b.Do, b.Do))
		}
		if !mayMax && hasMax {
			return nil, budgetErr(fact.Say("explore.budget.takes-no-max", part, b.Do))
		}
		out = append(out, b)
	}
	return out, nil
}

// A BudgetError is a budget ParseBudget cannot read; Words says why in
// English and Chinese, Error in English.
type BudgetError struct{ Words sim.Text }

func (e *BudgetError) Error() string { return e.Words.En }

func budgetErr(words sim.Text) error {
	return &BudgetError{Words: words}
}

// BudgetText writes a budget back in ParseBudget's form.
func BudgetText(bs []scenario.Budget) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		s := b.Do
		if b.Count > 1 {
			s += "=" + strconv.Itoa(b.Count)
		}
		if b.Max > 0 {
			s += ":" + b.Max.D().String()
		}
		if b.Client != "" {
			s += " (client " + b.Client + ")"
		}
		if b.Node != "" {
			s += " (node " + b.Node + ")"
		}
		parts[i] = s
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}
