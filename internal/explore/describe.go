package explore

import (
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Describe says in plain words, in English and Chinese, what a found schedule
// is: the faults the search placed, each where and when it landed in log
// (the replay of the recording), the order of moves it chose, and what
// came of it: when the lock's lease ran out and who took the lock next,
// then the checker's sentence for verdict. choices are the search's
// schedule entries (Result.Shrunk).
//
//	A stops for 540ms as it enters its critical section (at 0.001s). The
//	lock on redis expires at 1.001s; B takes it at 1.1s, 99ms later. B
//	entered the critical section of lock (#41) while A ... was still inside.
func Describe(log []*sim.Event, choices []scenario.Action, verdict string) sim.Text {
	var en, zh []string
	var order []scenario.Action
	for _, a := range choices {
		if a.Do == scenario.StepAction {
			order = append(order, a)
			continue
		}
		e := faultEvent(log, a)
		if e == nil {
			continue
		}
		t := describeFault(log, a, e)
		en, zh = append(en, t.En), append(zh, t.Zh)
	}
	if len(order) > 0 {
		t := describeOrder(log, order)
		en, zh = append(en, t.En), append(zh, t.Zh)
	}
	v := firstVerdict(log, verdict)
	if v != nil {
		if t, ok := describeLease(log, v); ok {
			en, zh = append(en, t.En), append(zh, t.Zh)
		}
		if v.Say != nil {
			en, zh = append(en, v.Say.En), append(zh, v.Say.Zh)
		}
	}
	if len(en) == 0 {
		return fact.Say("explore.describe.own-schedule")
	}
	return sim.Text{En: sentences(en, ". "), Zh: sentences(zh, "。")}
}

// sentences joins clauses as sentences, each ended once.
func sentences(parts []string, stop string) string {
	var b strings.Builder
	for i, p := range parts {
		p = strings.TrimSpace(p)
		p = strings.TrimRight(p, ".。")
		b.WriteString(p)
		if stop == ". " {
			b.WriteString(".")
			if i < len(parts)-1 {
				b.WriteString(" ")
			}
		} else {
			b.WriteString(stop)
		}
	}
	return b.String()
}

// faultEvent is the fault event a placed fault produced in log, or nil.
func faultEvent(log []*sim.Event, a scenario.Action) *sim.Event {
	seqs := Marks(log, []scenario.Action{a})
	if len(seqs) == 0 {
		return nil
	}
	for _, e := range log {
		if e.Seq == seqs[0] {
			return e
		}
	}
	return nil
}

func at(t time.Duration) string { return sim.FormatTime(t) }

// describeFault says what one placed fault was and where it landed.
func describeFault(log []*sim.Event, a scenario.Action, e *sim.Event) sim.Text {
	d := a.Size().D()
	when := fact.Say("explore.when.at", at(e.T))
	switch {
	case a.On != nil && a.On.Kind == string(sim.KindMark):
		who := a.On.Client
		if who == a.Client {
			who = "" // the fault hits the client at its own mark: "it"
		}
		p := sim.MarkPhrase(a.On.Name, who)
		when = fact.Say("explore.when.at-mark", p, at(e.T))
	case a.On != nil && a.On.Kind == string(sim.KindExec) && a.On.Client == a.Client:
		// a point (Options.Points): right after a node ran the command
		cmd := strings.ToUpper(a.On.Cmd)
		when = fact.Say("explore.when.after-exec", cmd, at(e.T))
	}
	// Any other event a fault is recorded on (a reply, a send: anchor.go)
	// is told by its time alone, as a fault placed at a step.
	c, n := a.Client, a.Node
	switch sim.FaultKind(a.Do) {
	case sim.FaultPause:
		return fact.Say("explore.fault.pause", c, at(d), when)
	case sim.FaultCrash:
		return fact.Say("explore.fault.crash", c, when)
	case sim.FaultDropReply, sim.FaultDropRequest:
		return describeDrop(log, e, a, when)
	case sim.FaultNodeCrash:
		if d > 0 {
			return fact.Say("explore.fault.node-restart", n, when, at(d))
		}
		return fact.Say("explore.fault.node-down", n, when)
	case sim.FaultClockJump:
		if d < 0 {
			return fact.Say("explore.fault.clock-back", n, at(-d), when)
		}
		return fact.Say("explore.fault.clock-forward", n, at(d), when)
	case sim.FaultFailover:
		return fact.Say("explore.fault.failover", n, when)
	case sim.FaultPartition:
		if d > 0 {
			return fact.Say("explore.fault.partition", c, n, when, at(d))
		}
		return fact.Say("explore.fault.partition-for-good", c, n, when)
	}
	return faultByName(e, when)
}

// faultByName says a fault of a kind without its own case above by what
// the engine said of it, its event's fact (in both languages), and when;
// by its kind's name where the event has no fact. A new kind is so said
// in full without a case here: give it one only for a fuller sentence.
func faultByName(e *sim.Event, when sim.Text) sim.Text {
	if note := e.Fact.Render(); note.En != "" && note.Zh != "" {
		note.En = strings.TrimSuffix(note.En, ".")
		return fact.Say("explore.fault.by-fact", note, when)
	}
	return fact.Say("explore.fault.by-name", e.Name, when)
}

// describeDrop tells a dropped request or reply: the command whose
// message was lost, or, when none was, the plan.
func describeDrop(log []*sim.Event, e *sim.Event, a scenario.Action, when sim.Text) sim.Text {
	c, what := a.Client, "reply"
	if a.Do == string(sim.FaultDropRequest) {
		what = "request"
	}
	for _, l := range log {
		if l.Seq > e.Seq && l.Kind == sim.KindLost && l.Client == c && l.Name == what {
			cmd := strings.Join(l.Cmd, " ")
			if what == "reply" {
				return fact.Say("explore.drop.reply-lost", c, cmd, at(l.T))
			}
			return fact.Say("explore.drop.request-lost", c, cmd, l.Node, at(l.T))
		}
	}
	if what == "reply" {
		return fact.Say("explore.drop.next-reply", c, when)
	}
	return fact.Say("explore.drop.next-request", c, when)
}

// describeOrder says which client the search let move first: the first
// two choices, and how many more. Choices of the same client at the same
// moment, one after the other, are one choice said with how many steps
// it takes ahead ("A moves first at 0.001s, 2 steps in a row").
func describeOrder(log []*sim.Event, order []scenario.Action) sim.Text {
	type group struct {
		client string
		t      time.Duration
		n      int
	}
	var groups []group
	for _, a := range order {
		t := time.Duration(-1)
		for _, e := range log {
			if e.Step == a.Step+1 && e.Client == a.Client {
				t = e.T
				break
			}
		}
		if n := len(groups); n > 0 && groups[n-1].client == a.Client && groups[n-1].t == t {
			groups[n-1].n++
			continue
		}
		groups = append(groups, group{a.Client, t, 1})
	}
	var firsts []sim.Text
	said := 0
	for _, g := range groups[:min(2, len(groups))] {
		if g.t < 0 {
			continue
		}
		said += g.n
		first := fact.Say("explore.order.moves-first", g.client, at(g.t))
		if g.n > 1 {
			first = fact.Say("explore.order.moves-first-steps", g.client, at(g.t), g.n)
		}
		firsts = append(firsts, first)
	}
	lets := joinTexts(firsts, fact.Say("explore.order.then"))
	switch more := len(order) - said; {
	case more > 0 && len(firsts) == 0:
		return fact.Say("explore.order.chooses", more)
	case more == 1:
		return fact.Say("explore.order.lets-then-one-more", lets)
	case more > 1:
		return fact.Say("explore.order.lets-then-more", lets, more)
	}
	return fact.Say("explore.order.lets", lets)
}

// firstVerdict is the first verdict event named v (or any violation when
// v is empty).
func firstVerdict(log []*sim.Event, v string) *sim.Event {
	for _, e := range log {
		if e.Kind == sim.KindVerdict && (e.Name == v || v == "" && e.Name != sim.VerdictSafe) {
			return e
		}
	}
	return nil
}

// describeLease says when a lock key last expired before the verdict
// event v and who took it next: the lease running out under its holder.
func describeLease(log []*sim.Event, v *sim.Event) (sim.Text, bool) {
	locks := map[string]bool{}
	for _, e := range log {
		if e.Kind == sim.KindMark && e.Lock != "" {
			locks[e.Lock] = true
		}
	}
	var exp *sim.Event
	var key string
	for _, e := range log {
		if e.Seq > v.Seq {
			break
		}
		if e.Kind != sim.KindExpire {
			continue
		}
		for _, k := range e.Keys {
			if locks[k.Key] && !k.Exists() {
				exp, key = e, k.Key
			}
		}
	}
	if exp == nil {
		return sim.Text{}, false
	}
	for _, e := range log {
		if e.Seq <= exp.Seq || e.Seq > v.Seq || e.Kind != sim.KindExec || e.Node != exp.Node {
			continue
		}
		i := slices.IndexFunc(e.Keys, func(k sim.KeyState) bool { return k.Key == key && k.Exists() && k.Owner == e.Client })
		if i < 0 {
			continue
		}
		gap := e.T - exp.T
		return fact.Say("explore.lease.taken", exp.Node, at(exp.T), e.Client, e.CmdText(), at(e.T), at(gap)), true
	}
	return fact.Say("explore.lease.expires", exp.Node, at(exp.T)), true
}
