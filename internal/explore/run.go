package explore

import (
	"fmt"
	"strconv"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// option is one choice at a decision point: a client's move, or a fault
// (the zero fault, Do "", is "no fault here").
type option struct {
	move   sim.Move
	fault  scenario.Fault
	budget int // index of the budget entry a fault spends
}

// decision is a point of a schedule where the search chooses.
type decision struct {
	moves  bool     // a choice of move (else: of fault, option 0 being none)
	step   int      // the engine step it is taken before
	opts   []option //
	actors []string // fault decisions: the clients and nodes that acted in the step just taken
}

// decider makes a schedule's choices. choose returns the index of the
// option taken, or -1 to abandon the schedule (it repeats one already
// covered).
type decider interface {
	choose(d *decision) int
	// stepped is told after every engine step the search did not choose:
	// m is the move it took when that is known (nil: an expiry, a world
	// action, or a tie the engine broke). It returns false to abandon the
	// schedule.
	stepped(m *sim.Move) bool
}

// outcome is what one schedule gave.
type outcome struct {
	actions  []scenario.Action // the choices, as schedule entries
	verdicts []string          // the checker's verdicts (online ones only when cut)
	steps    int
	cut      bool   // ended by the step bound, not the scenario's end
	dropped  bool   // abandoned by the decider
	trace    uint64 // a fingerprint of the whole event stream
}

// violation is the first verdict of an outcome that is not safe.
func (o *outcome) violation() string {
	for _, v := range o.verdicts {
		if v != "safe" {
			return v
		}
	}
	return ""
}

// sought is the first verdict of the outcome among want, or with want
// empty its first violation.
func (o *outcome) sought(want []string) string {
	if len(want) == 0 {
		return o.violation()
	}
	for _, v := range o.verdicts {
		if containsStr(want, v) {
			return v
		}
	}
	return ""
}

// searchScenario is the scenario a search runs: sc with the bound's
// horizon and no recorded schedule.
func searchScenario(sc *scenario.Scenario, b bounds) *scenario.Scenario {
	out := *sc
	out.Horizon = scenario.Duration(b.horizon)
	out.Schedule = nil
	return &out
}

// execute runs one schedule of sc (already bounded by searchScenario),
// letting dec make every choice. states, when not nil, collects the
// fingerprint of the event stream after every step.
//
// With early set, the schedule stops at the first violation the checker
// reports as it happens (verdicts are never taken back, so that one stands;
// those found only at the end of a run still need the whole run).
func execute(sc *scenario.Scenario, seed int64, b bounds, dec decider, states *stateSet, early bool) (*outcome, error) {
	r, err := lesson.BuildQuiet(sc, seed, b.steps)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	w := r.World
	out := &outcome{}
	fp := newPrint()
	var actors []string
	w.Watch(func(e *sim.Event) {
		fp.add(e)
		if e.Client != "" && !containsStr(actors, e.Client) {
			actors = append(actors, e.Client)
		}
		if e.Node != "" && w.Node(e.Node) != nil && !containsStr(actors, e.Node) {
			actors = append(actors, e.Node)
		}
	})
	left := make([]int, len(b.budget))
	for i, bu := range b.budget {
		left[i] = bu.Count
	}
	for {
		cursor := w.Steps()
		moves := w.Moves(b.window)
		actors = actors[:0]
		var ok bool
		if len(moves) >= 2 {
			d := &decision{moves: true, step: cursor, opts: make([]option, len(moves))}
			for i, m := range moves {
				d.opts[i] = option{move: m}
			}
			i := dec.choose(d)
			if i < 0 {
				out.dropped = true
				return out, nil
			}
			name := moves[i].Client
			if ok, err = w.StepClient(name); err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("explore: client %s had no move at step %d", name, cursor)
			}
			out.actions = append(out.actions, scenario.Action{Step: cursor, Fault: scenario.Fault{Do: scenario.StepAction, Client: name}})
		} else {
			var only *sim.Move
			if len(moves) == 1 && moves[0].Next {
				only = &moves[0]
			}
			if ok = w.Step(); ok && !dec.stepped(only) {
				out.dropped = true
				return out, nil
			}
		}
		if !ok {
			break
		}
		if early && len(r.Checker.Verdicts()) > 0 {
			out.steps = w.Steps()
			out.verdicts = append([]string(nil), r.Checker.Verdicts()...)
			out.trace = fp.h
			return out, nil
		}
		if states != nil {
			states.add(fp.h)
		}
		if d := faultDecision(w, b, left, actors); d != nil {
			i := dec.choose(d)
			if i < 0 {
				out.dropped = true
				return out, nil
			}
			if i > 0 {
				o := d.opts[i]
				if err := w.Apply(lesson.SimFault(o.fault)); err == nil {
					left[o.budget]--
					out.actions = append(out.actions, scenario.Action{Step: w.Steps(), Fault: o.fault})
				}
			}
		}
	}
	out.steps = w.Steps()
	if w.Steps() >= b.steps {
		out.cut = true
		out.verdicts = append([]string(nil), r.Checker.Verdicts()...)
	} else {
		r.Step() // the world is over: this adds the final verdicts
		out.verdicts = append([]string(nil), r.Verdicts()...)
	}
	out.trace = fp.h
	return out, nil
}

// faultDecision lists the faults the budget still allows on the actors of
// the step just taken, after "none"; nil when there are none.
func faultDecision(w *sim.World, b bounds, left []int, actors []string) *decision {
	var d *decision
	for i, bu := range b.budget {
		if left[i] == 0 {
			continue
		}
		for _, a := range actors {
			isNode := w.Node(a) != nil
			if isNode != nodeFault(bu.Do) || bu.Client != "" && bu.Client != a || bu.Node != "" && bu.Node != a {
				continue
			}
			if d == nil {
				d = &decision{step: w.Steps(), opts: []option{{}}, actors: actors}
			}
			if bu.Max > 0 {
				for _, l := range levels(bu.Max.D()) {
					d.opts = append(d.opts, option{fault: fault(bu, a, l), budget: i})
				}
			} else {
				d.opts = append(d.opts, option{fault: fault(bu, a, 0), budget: i})
			}
		}
	}
	return d
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// print is an FNV-1a fingerprint of an event stream.
type print struct{ h uint64 }

func newPrint() *print { return &print{h: 14695981039346656037} }

func (p *print) str(s string) {
	for i := 0; i < len(s); i++ {
		p.h ^= uint64(s[i])
		p.h *= 1099511628211
	}
	p.h ^= 0xff
	p.h *= 1099511628211
}

func (p *print) add(e *sim.Event) {
	p.str(string(e.Kind))
	p.str(e.Client)
	p.str(e.Thread)
	p.str(e.Node)
	p.str(strconv.FormatInt(int64(e.T), 36))
	p.str(e.Name)
	for _, c := range e.Cmd {
		p.str(c)
	}
	p.str(e.Reply)
	for _, k := range e.Keys {
		p.str(k.Key)
		p.str(k.Value)
		p.str(strconv.FormatInt(k.TTL, 36))
	}
}

// stateSet counts distinct states (fingerprints of event streams) up to a
// cap, past which it only counts what it already holds.
type stateSet struct {
	m   map[uint64]struct{}
	cap int
}

func newStateSet() *stateSet { return &stateSet{m: map[uint64]struct{}{}, cap: 1 << 21} }

func (s *stateSet) add(h uint64) {
	if len(s.m) < s.cap {
		s.m[h] = struct{}{}
	}
}

func (s *stateSet) len() int { return len(s.m) }
