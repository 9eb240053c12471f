package scenario

import (
	"fmt"
	"slices"

	"github.com/lockstep/lockstep/internal/sim"
)

// StepAction is the Do of a recorded manual step in a schedule.
const StepAction = sim.StepAction

func (c *validator) faults(s *Scenario, p string, sc *scope) {
	if len(s.Faults) > MaxFaults {
		c.at(p+".faults", "%d faults; the limit is %d per scenario", len(s.Faults), MaxFaults)
	}
	for i := range s.Faults {
		fp := fmt.Sprintf("%s.faults[%d]", p, i)
		f := &s.Faults[i]
		c.when(&f.When, fp, sc, true)
		c.fault(f, fp, sc, false)
	}
}

// fault checks a fault's kind (or, in a schedule, its action), targets and
// amounts against its row of sim.Actions.
func (c *validator) fault(f *Fault, fp string, sc *scope, inSchedule bool) {
	var kinds []string
	for _, a := range sim.Actions {
		if a.Fault || inSchedule {
			kinds = append(kinds, a.Do)
		}
	}
	if f.Do == "" {
		if inSchedule {
			c.at(fp+".do", "a schedule entry needs do: step, or a fault kind such as crash")
		} else {
			c.at(fp+".do", "a fault needs do: a fault kind such as crash, pause or partition")
		}
		return
	}
	a, ok := sim.ActionOf(f.Do)
	if !ok || !slices.Contains(kinds, f.Do) {
		c.unknownName(fp+".do", map[bool]string{true: "action", false: "fault"}[inSchedule], f.Do, kinds)
		return
	}
	if a.NeedsClient() && f.Client == "" {
		c.at(fp, "%s needs a client:", f.Do)
	}
	if a.NeedsNode() && f.Node == "" {
		c.at(fp, "%s needs a node:", f.Do)
	}
	if f.Client != "" && !slices.Contains(sc.clients, f.Client) {
		c.undeclared(fp+".client", "client", f.Client, sc.clients)
	}
	if f.Node != "" && !slices.Contains(sc.nodes, f.Node) {
		c.undeclared(fp+".node", "node", f.Node, sc.nodes)
	}
	if a.Required && !hasAmount(f, a.Amount, c.has(fp+"."+a.Amount.Field())) {
		c.at(fp+"."+a.Amount.Field(), "%s", a.NeedsAmount())
	}
}

// hasAmount says whether fault f gives the amount its kind takes; written
// says whether the field is in the file (an offset of 0 is a value).
func hasAmount(f *Fault, a sim.Amount, written bool) bool {
	switch a {
	case sim.AmountDuration:
		return f.For > 0
	case sim.AmountJump:
		return f.By != 0
	case sim.AmountOffset:
		return written
	}
	return true
}

// when checks at/on. A fault needs exactly one of them; narration at most
// one (with neither it is shown at the start).
func (c *validator) when(w *When, p string, sc *scope, required bool) {
	switch {
	case w.At != nil && w.On != nil:
		c.at(p+".on", "set at: or on:, not both")
	case required && w.At == nil && w.On == nil:
		c.at(p, "a fault needs at: (a time) or on: (an event)")
	}
	if w.At != nil && w.At.D() > sc.horizon {
		c.at(p+".at", "at %s is after the horizon (%s): it would never happen", fmtDuration(w.At.D()), fmtDuration(sc.horizon))
	}
	if w.On != nil {
		c.match(w.On, p+".on", sc)
	}
}

// match checks the names a match uses.
func (c *validator) match(m *Match, p string, sc *scope) {
	if m.Kind != "" && !slices.Contains(sim.Kinds, sim.Kind(m.Kind)) {
		kinds := make([]string, len(sim.Kinds))
		for i, k := range sim.Kinds {
			kinds[i] = string(k)
		}
		c.unknownName(p+".kind", "event kind", m.Kind, kinds)
	}
	if m.Client != "" && !slices.Contains(sc.clients, m.Client) {
		c.undeclared(p+".client", "client", m.Client, sc.clients)
	}
	if m.Node != "" && !slices.Contains(sc.lanes, m.Node) {
		c.undeclared(p+".node", "node", m.Node, sc.lanes)
	}
	if m.Nth < 0 {
		c.at(p+".nth", "nth counts from 1, got %d", m.Nth)
	}
}

func (c *validator) schedule(s *Scenario, p string, sc *scope) {
	if len(s.Schedule) > MaxSchedule {
		c.at(p+".schedule", "%d schedule entries; the limit is %d per scenario", len(s.Schedule), MaxSchedule)
		return
	}
	for i := range s.Schedule {
		a := &s.Schedule[i]
		ap := fmt.Sprintf("%s.schedule[%d]", p, i)
		if a.Step < 0 {
			c.at(ap+".step", "step cannot be negative, got %d", a.Step)
		}
		if a.At != nil || a.On != nil {
			c.at(ap, "a schedule entry happens at a step: it takes step:, not at: or on:")
		}
		c.fault(&a.Fault, ap, sc, true)
	}
}
