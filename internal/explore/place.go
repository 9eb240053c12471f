package explore

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Where a fault of the budget may be placed. A decision point comes before
// the first step (the start: every client, every node and every link),
// right after every step, and at every mark a client makes (acquired,
// enter, expired, ...) as it happens, before the client does anything
// more: where a lesson's author puts a fault with on: {kind: mark}. There
//
//   - a client fault (pause, crash, drop-request, drop-reply) may hit a
//     client that acted in the step (at a mark: the client that marked);
//     in a random or PCT search, any client: a pause or a crash then lands
//     in the middle of what the client is doing, whoever acted last (the
//     exhaustive search keeps to the actors, which bounds its schedules to
//     a few per step);
//   - a node fault (node-crash, clock-jump) may hit any node, a failover
//     any node with a replica;
//   - a partition cuts the link between a client that acted in the step
//     and any node (at the start: any link), for good or, with a max, for
//     a while. A partition matters to the messages that cross its link
//     after it, so it is placed where its client is about to send.
//
// A fault placed at a step is written as a schedule entry at that step, as
// hand-injecting it in the browser records it; one placed at a mark as a
// scripted fault on that mark: {on: {kind: mark, name: expired, client: C,
// nth: 2}, do: pause, client: C, for: 300ms}.

// faultDecision lists the faults the budget still allows at a decision
// point, after "none"; nil when there are none. actors are the clients
// that acted in the step just taken (at the start: every client); mark is
// the name of the mark the point is at ("" after a step or at the start).
func faultDecision(w *sim.World, b bounds, left []int, actors []string, mark string) *decision {
	var d *decision
	for i, bu := range b.budget {
		if left[i] == 0 {
			continue
		}
		for _, t := range targets(w, b, bu.Do, actors, mark) {
			if bu.Client != "" && bu.Client != t.client || bu.Node != "" && bu.Node != t.node {
				continue
			}
			if d == nil {
				d = &decision{step: w.Steps(), opts: []option{{}}}
			}
			d.opts = append(d.opts, options(b, i, t)...)
		}
	}
	return d
}

// target is where one fault lands: a client, a node, or the link between
// them.
type target struct{ client, node string }

// targets are where a fault of kind do may land at a decision point, by
// the action's target (the rules above).
func targets(w *sim.World, b bounds, do string, actors []string, mark string) []target {
	var ts []target
	switch a := action(do); {
	case a.Target == sim.TargetLink:
		for _, c := range actors {
			for _, n := range w.NodeNames() {
				ts = append(ts, target{client: c, node: n})
			}
		}
	case a.Applies == sim.NodeMaster:
		for _, n := range b.masters {
			ts = append(ts, target{node: n})
		}
	case a.Target == sim.TargetNode:
		for _, n := range w.NodeNames() {
			ts = append(ts, target{node: n})
		}
	case len(b.marks) > 0 && mark != pointMark && !containsStr(b.marks, mark):
		// a client fault, placed only at the marks named (and the points)
	default:
		clients := actors
		if b.anyClient && len(b.marks) == 0 {
			clients = w.ClientNames()
		}
		for _, c := range clients {
			ts = append(ts, target{client: c})
		}
	}
	return ts
}

// options are the faults of budget entry i at t: one, or with a max, one
// of each size the search tries.
func options(b bounds, i int, t target) []option {
	bu := b.budget[i]
	if bu.Max <= 0 {
		return []option{{fault: fault(bu, t.client, t.node, 0), budget: i}}
	}
	var opts []option
	for _, l := range levels(bu.Max.D(), b.exact) {
		opts = append(opts, option{fault: fault(bu, t.client, t.node, l), budget: i})
	}
	return opts
}

// placer spends one schedule's fault budget at its decision points.
type placer struct {
	w       *sim.World
	b       bounds
	dec     decider
	out     *outcome
	left    []int             // faults of each budget entry still to place
	marks   map[[2]string]int // marks seen so far by name and client
	abandon bool              // the decider abandoned the schedule at a mark
}

func newPlacer(w *sim.World, b bounds, dec decider, out *outcome) *placer {
	p := &placer{w: w, b: b, dec: dec, out: out, left: make([]int, len(b.budget)), marks: map[[2]string]int{}}
	for i, bu := range b.budget {
		p.left[i] = bu.Count
	}
	p.out.moments = 1 // the start
	return p
}

// after offers the budget's faults after a step (at the start: before the
// first), the clients in actors having acted in it, and applies the one
// chosen. A decider that stacks faults is asked again after each, so that
// several land at one point (two links cut at the start, before a client
// that asks every node at once has sent anything); the exhaustive search
// places one a point. It returns false if the decider abandoned the
// schedule.
func (p *placer) after(actors []string) bool {
	for {
		d := faultDecision(p.w, p.b, p.left, actors, "")
		if d == nil {
			return true
		}
		d.moments, d.actors = p.out.moments, actors
		i := p.dec.choose(d)
		if i < 0 {
			return false
		}
		if i == 0 {
			return true
		}
		o := d.opts[i]
		if err := p.w.Apply(lesson.SimFault(o.fault)); err == nil {
			p.left[o.budget]--
			p.out.actions = append(p.out.actions, scenario.Action{Step: p.w.Steps(), Fault: o.fault})
		}
		if s, ok := p.dec.(stacker); !ok || !s.stacks() {
			return true
		}
	}
}

// stacker is a decider that may place several faults at one decision
// point.
type stacker interface{ stacks() bool }

// pointMark stands, for faultDecision, for a point of Options.Points:
// never the name of a mark (a mark's name has no spaces).
const pointMark = "a point"

// mark offers the budget's faults at mark e of a client, as it happens.
// The fault chosen fires through a trigger on e itself, right after every
// watcher has seen e, exactly as a scenario's fault on that mark fires
// when the recording is replayed.
func (p *placer) mark(e *sim.Event) {
	p.offer(e, e.Name, scenario.Match{Kind: string(sim.KindMark), Name: e.Name, Client: e.Client})
}

// point offers the budget's faults at e when it matches one of the
// search's points, as a mark's: recorded on an event of e's kind, command
// and name by e's client, counted as the replay counts them.
func (p *placer) point(e *sim.Event) {
	for _, m := range p.b.points {
		if !lesson.Matches(&m, e) {
			continue
		}
		m.Client, m.Nth = e.Client, 0
		p.offer(e, pointMark, m)
		return
	}
}

// offer offers the budget's faults at e, a mark (name) or a point, and
// records the one chosen on match, its Nth the count of e's matches.
func (p *placer) offer(e *sim.Event, name string, match scenario.Match) {
	key := [2]string{fmt.Sprintf("%s/%s/%s", match.Kind, match.Name, strings.ToUpper(match.Cmd)), e.Client}
	p.marks[key]++
	p.out.moments++
	actors := []string{e.Client}
	d := faultDecision(p.w, p.b, p.left, actors, name)
	if d == nil {
		return
	}
	d.moments, d.mark, d.actors = p.out.moments, true, actors
	i := p.dec.choose(d)
	if i < 0 {
		p.abandon = true
	}
	if i <= 0 {
		return
	}
	o := d.opts[i]
	p.left[o.budget]--
	p.w.On(func(x *sim.Event) bool { return x == e }, lesson.SimFault(o.fault))
	f := o.fault
	match.Nth = p.marks[key]
	f.On = &match
	p.out.actions = append(p.out.actions, scenario.Action{Step: p.w.Steps(), Fault: f})
}
