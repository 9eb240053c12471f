package compare

import (
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Taken is one fault the left run took, how the right run places it and
// where it landed on each side.
type Taken struct {
	Fault scenario.Fault  // the fault, without its at: or on:
	How   How             // how the right finds its point
	On    *scenario.Match // Trigger: the trigger both sides keep
	At    time.Duration   // Instant: the virtual moment
	Place Place           // AtPlace: the point of a client's progress
	Left  int             // the sequence number of the left's event it came at; -1: none
	Right int             // the right's; -1: the right never got there
	// Refused is why the fault changed nothing on the right (the engine's
	// reason) when it did change something on the left.
	Refused   string
	leftNoted bool // the left refused it too
}

// Where says in words where the fault is placed, in both languages.
func (t Taken) Where() sim.Text {
	switch t.How {
	case Instant:
		return instantWords(t.At)
	case AtPlace:
		return t.Place.Phrase()
	case Trigger:
		if t.On.Kind == string(sim.KindMark) && t.On.Client != "" {
			return Place{Client: t.On.Client, Mark: t.On.Name, Nth: max(t.On.Nth, 1)}.Phrase()
		}
		return fact.Say("compare.on-match", matchText(t.On))
	}
	return fact.Say("compare.at-same-step")
}

func matchText(m *scenario.Match) string {
	s := m.Kind
	for _, f := range []string{m.Name, m.Client, m.Node, m.Cmd, m.Key} {
		if f != "" {
			s += " " + f
		}
	}
	if m.Nth > 1 {
		s += fmt.Sprintf(" #%d", m.Nth)
	}
	return s
}

// faulty are a scenario's faults that do something (not its narration's
// claims).
func faulty(fs []scenario.Fault) []scenario.Fault {
	var out []scenario.Fault
	for _, f := range fs {
		if f.Do != "" {
			out = append(out, f)
		}
	}
	return out
}

// translate is right as it runs against left's faults, placed by meaning:
// its own faults, recorded schedule and narration give way to left's
// faults, each at its instant or kept trigger (the engine takes those);
// the faults at a point of a client's progress are returned, for play to
// take.
func translate(right *scenario.Scenario, taken []Taken) (*scenario.Scenario, []*Taken) {
	out := *right
	out.Faults, out.Schedule, out.Narration = nil, nil, nil
	var places []*Taken
	for i := range taken {
		t := &taken[i]
		switch t.How {
		case Instant:
			f := t.Fault
			at := scenario.Duration(t.At)
			f.At = &at
			out.Faults = append(out.Faults, f)
		case Trigger:
			f := t.Fault
			f.On = t.On
			out.Faults = append(out.Faults, f)
		case AtPlace:
			places = append(places, t)
		}
	}
	return &out, places
}

// landed notes where each fault of taken landed on the right run, from
// its log: a kept trigger or an instant at the fault event of its kind and
// target, and whether the engine refused it there.
func landed(log []*sim.Event, taken []Taken, leftLog []*sim.Event) {
	used := map[int]bool{}
	for i := range taken {
		t := &taken[i]
		if t.How == AtPlace || t.How == Verbatim {
			continue
		}
		for _, e := range log {
			if e.Kind != sim.KindFault || used[e.Seq] || e.Name != t.Fault.Do || e.Client != t.Fault.Client || e.Node != t.Fault.Node {
				continue
			}
			if t.How == Instant && e.T != t.At {
				continue
			}
			used[e.Seq], t.Right = true, e.Seq
			if e.Fact != nil && e.Fact.Key == fact.NotApplied {
				t.Refused = "refused"
				if e.Fact.Reason != nil {
					t.Refused = e.Fact.Reason.Text
				}
			}
			break
		}
	}
	// A fault the left refused too is the same on both sides.
	for i := range taken {
		t := &taken[i]
		if t.Left < 0 {
			continue
		}
		for _, e := range leftLog {
			if e.Seq > t.Left && e.Kind == sim.KindFault && e.Name == t.Fault.Do {
				t.leftNoted = e.Fact != nil && e.Fact.Key == fact.NotApplied
				break
			}
		}
	}
}

// usedNodes are the nodes some client of a log sent a command to.
func usedNodes(log []*sim.Event) map[string]bool {
	used := map[string]bool{}
	for _, e := range log {
		if e.Kind == sim.KindSend && e.Node != "" {
			used[e.Node] = true
		}
	}
	return used
}

// notes says, in words, what the right could not face as the left did:
// a fault it never got to, one it refused, a fault on a node the left's
// clients used and the right's never do (it lands, and changes nothing
// there), hand moves not carried over.
func notes(taken []Taken, hand int, rightID string, leftUsed, rightUsed map[string]bool) []sim.Text {
	var out []sim.Text
	for _, t := range taken {
		f, where := FaultWords(t.Fault), t.Where()
		switch {
		case t.How == Verbatim:
		case t.Fault.Node != "" && leftUsed[t.Fault.Node] && !rightUsed[t.Fault.Node]:
			out = append(out, fact.Say("compare.note.node-unused", f, where, t.Fault.Node))
		case t.Right < 0:
			out = append(out, fact.Say("compare.note.never-got-there", f, where))
		case t.Refused != "" && !t.leftNoted:
			out = append(out, fact.Say("compare.note.not-applied", f, where, t.Refused))
		}
	}
	switch {
	case hand == 1:
		out = append(out, fact.Say("compare.note.hand-move", rightID))
	case hand > 1:
		out = append(out, fact.Say("compare.note.hand-moves", hand, rightID))
	}
	return out
}
