package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// StepAction is the Do of a recorded manual step in a schedule.
const StepAction = sim.StepAction

func (c *validator) faults(s *Scenario, p string, sc *scope) {
	if len(s.Faults) > MaxFaults {
		c.at(p+".faults", fact.Say("scenario.too-many-faults", len(s.Faults), MaxFaults))
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
			c.at(fp+".do", fact.Say("scenario.schedule-entry-needs-do-step"))
		} else {
			c.at(fp+".do", fact.Say("scenario.fault-needs-do-a-fault"))
		}
		return
	}
	a, ok := sim.ActionOf(f.Do)
	if !ok || !slices.Contains(kinds, f.Do) {
		c.unknownName(fp+".do", map[bool]string{true: "action", false: "fault"}[inSchedule], f.Do, kinds)
		return
	}
	if a.NeedsClient() && f.Client == "" {
		c.at(fp, fact.Say("scenario.needs-a-client", f.Do))
	}
	if a.NeedsNode() && f.Node == "" {
		c.at(fp, fact.Say("scenario.needs-a-node", f.Do))
	}
	if f.Client != "" && !slices.Contains(sc.clients, f.Client) {
		c.undeclared(fp+".client", "client", f.Client, sc.clients)
	}
	switch {
	case c.serviceNode(fp+".node", f.Node, sc.nodes):
	case f.Node != "" && !slices.Contains(sc.nodes, f.Node):
		c.undeclared(fp+".node", "node", f.Node, sc.nodes)
	case f.Do == string(sim.FaultFailover) && f.Node != "" && !c.flat && !slices.Contains(sc.masters, f.Node):
		// (in a file; a fault injected by hand is refused by the engine, with its reason)
		c.at(fp+".node", fact.Say("scenario.failover-of-can-never-happen", f.Node, f.Node))
	}
	if a.Required && !hasAmount(f, a.Amount, c.has(fp+"."+a.Amount.Field())) {
		c.at(fp+"."+a.Amount.Field(), (&fact.Fact{Key: fact.NeedsAmount, Item: a.Do, Value: a.Amount.Field(), Text: a.Hint}).Render())
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
		c.at(p+".on", fact.Say("scenario.set-at-or-on-not"))
	case required && w.At == nil && w.On == nil:
		c.at(p, fact.Say("scenario.fault-needs-at-a-time"))
	}
	if w.At != nil && w.At.D() > sc.horizon {
		c.at(p+".at", fact.Say("scenario.at-is-after-the-horizon", fmtDuration(w.At.D()), fmtDuration(sc.horizon)))
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
		c.at(p+".nth", fact.Say("scenario.nth-counts-from-1-got", m.Nth))
	}
	c.matchCarries(m, p)
	if m.Cmd != "" && !knownCommand(m.Cmd) {
		if sg := suggest(m.Cmd, Commands); sg != "" {
			c.at(p+".cmd", fact.Say("scenario.no-event-carries-command-meant", short(m.Cmd), sg))
		} else {
			c.at(p+".cmd", fact.Say("scenario.no-event-carries-command", short(m.Cmd), strings.Join(Commands, ", ")))
		}
	}
	if m.Name != "" {
		c.matchName(m, p, sc)
	}
}

// matchCarries refuses a cmd: or key: on a kind of event that never
// carries one (a reply carries neither: it answers a send, which does).
func (c *validator) matchCarries(m *Match, p string) {
	kind := sim.Kind(m.Kind)
	if m.Kind == "" || !slices.Contains(sim.Kinds, kind) {
		return
	}
	carriers := func(has func(sim.Kind) bool) string {
		var names []string
		for _, k := range sim.Kinds {
			if has(k) {
				names = append(names, string(k))
			}
		}
		return strings.Join(names, ", ")
	}
	if m.Cmd != "" && !kind.CarriesCmd() {
		c.at(p+".cmd", fact.Say("scenario.event-carries-no-command", m.Kind, carriers(sim.Kind.CarriesCmd)))
	}
	if m.Key != "" && !kind.CarriesKey() {
		c.at(p+".key", fact.Say("scenario.event-names-no-key", m.Kind, carriers(sim.Kind.CarriesKey)))
	}
}

// matchName checks that a match's name can be the name of an event the
// run writes: a mark some client (the match's client, when it names one)
// writes, a fault kind, a verdict, a say; on a kind without names it never
// matches.
func (c *validator) matchName(m *Match, p string, sc *scope) {
	kind := sim.Kind(m.Kind)
	if m.Kind != "" && !slices.Contains(sim.Kinds, kind) || m.Client != "" && !slices.Contains(sc.clients, m.Client) {
		return // reported as an unknown kind, or an undeclared client
	}
	if m.Kind != "" && !slices.Contains(namedKinds, kind) {
		c.at(p+".name", fact.Say("scenario.event-has-no-name", map[bool]string{true: "n", false: ""}[strings.ContainsAny(m.Kind[:1], "aeiou")], m.Kind))
		return
	}
	var marks []string
	for _, cl := range sc.clients {
		if m.Client == "" || m.Client == cl {
			cm, ok := sc.marks[cl]
			if !ok {
				return // its algorithm is unknown, and reported
			}
			marks = append(marks, cm...)
		}
	}
	slices.Sort(marks)
	marks = slices.Compact(marks)
	var names []string
	switch kind {
	case sim.KindMark:
		names = marks
	case "":
		names = slices.Clone(marks)
		for _, k := range namedKinds[1:] {
			names = append(names, EventNames(k)...)
		}
	default:
		names = EventNames(kind)
	}
	if slices.Contains(names, m.Name) {
		return
	}
	if (kind == sim.KindMark || m.Kind == "") && m.Client != "" && slices.Contains(sc.clients, m.Client) {
		c.at(p+".name", fact.Say("scenario.never-writes-mark", m.Client, sc.algos[m.Client], short(m.Name), strings.Join(sc.marks[m.Client], ", ")))
		return
	}
	what := map[sim.Kind]string{sim.KindMark: "mark", sim.KindFault: "fault", sim.KindVerdict: "verdict",
		sim.KindSay: "say", sim.KindLost: "lost message", sim.KindError: "error", "": "event name"}[kind]
	if sg := suggest(m.Name, names); sg != "" {
		c.at(p+".name", fact.Say("scenario.never-happens-named-meant", thing(what), short(m.Name), sg))
		return
	}
	c.at(p+".name", fact.Say("scenario.never-happens-named", thing(what), short(m.Name), thing(what), strings.Join(names, ", ")))
}

func (c *validator) schedule(s *Scenario, p string, sc *scope) {
	if len(s.Schedule) > MaxSchedule {
		c.at(p+".schedule", fact.Say("scenario.too-many-schedule-entries", len(s.Schedule), MaxSchedule))
		return
	}
	for i := range s.Schedule {
		a := &s.Schedule[i]
		ap := fmt.Sprintf("%s.schedule[%d]", p, i)
		if a.Step < 0 {
			c.at(ap+".step", fact.Say("scenario.step-cannot-be-negative-got", a.Step))
		}
		if a.At != nil || a.On != nil {
			c.at(ap, fact.Say("scenario.schedule-entry-happens-at-a"))
		}
		c.fault(&a.Fault, ap, sc, true)
	}
}

// serviceNode reports, and refuses with its reason, a fault aimed at the
// storage or the db: services the engine answers without a network, so
// no lost request or reply, partition or node fault reaches them.
func (c *validator) serviceNode(path, node string, nodes []string) bool {
	if node != StorageService && node != DBService || slices.Contains(nodes, node) {
		return false // (a Redis node may be named db)
	}
	c.at(path, fact.Say("scenario.fault-on-service", node, strings.Join(nodes, ", ")))
	return true
}
