package explore

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
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
	moves bool     // a choice of move (else: of fault, option 0 being none)
	step  int      // the engine step it is taken before
	opts  []option //
	// moments counts, at a fault decision, the start and the marks so far
	// by which clients reported a step of their algorithm (acquired,
	// enter, leave, ...): the protocol's own moments.
	moments int
	mark    bool     // taken at a mark, as it happens (else after a step)
	actors  []string // fault decisions: the clients that acted (the one that marked)
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
	moments  int           // the start and the marks of the protocol
	cut      bool          // ended by the step bound, not the scenario's end
	dropped  bool          // abandoned by the decider
	trace    uint64        // a fingerprint of the whole event stream
	took     time.Duration // the wall-clock time it took (to plan the time a replay of it needs)
}

// violation is the first verdict of an outcome that is not safe.
func (o *outcome) violation() string {
	for _, v := range o.verdicts {
		if v != sim.VerdictSafe {
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
// The schedule ends at the bound's step cap (a cut schedule), even when
// several clients could still move. When p says the search must stop, it
// returns errStopped.
//
// With stop set, the schedule stops as soon as the verdicts the checker
// reports as they happen satisfy it (verdicts are never taken back, so
// those stand; verdicts found only at the end of a run still need the
// whole run).
func execute(p *pacer, sc *scenario.Scenario, seed int64, b bounds, dec decider, states *stateSet, stop func([]string) bool) (*outcome, error) {
	r, err := lesson.New(sc, lesson.Config{Seed: seed, Servers: embedded.Servers{}, Quiet: true, MaxSteps: b.steps})
	if err != nil {
		return nil, err
	}
	defer r.Close()
	w := r.World
	start := time.Now()
	out := &outcome{}
	defer func() { out.took = time.Since(start) }()
	fp := newPrint()
	var actors []string
	pl := newPlacer(w, b, dec, out)
	w.Watch(func(e *sim.Event) {
		fp.add(e)
		if e.Client != "" && !containsStr(actors, e.Client) {
			actors = append(actors, e.Client)
		}
		if e.Kind == sim.KindMark && e.Client != "" {
			pl.mark(e)
		}
	})
	if !pl.after(w.ClientNames()) {
		out.dropped = true
		return out, nil
	}
	for {
		cursor := w.Steps()
		if cursor >= b.steps {
			break // the step cap: no client may move any more (a cut schedule)
		}
		if !p.step() {
			return nil, errStopped
		}
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
			if ok = w.Step(); ok && (pl.abandon || !dec.stepped(only)) {
				out.dropped = true
				return out, nil
			}
		}
		if !ok {
			break
		}
		if stop != nil && len(r.Checker.Verdicts()) > 0 && stop(r.Checker.Verdicts()) {
			out.steps = w.Steps()
			out.verdicts = append([]string(nil), r.Checker.Verdicts()...)
			out.trace = fp.h
			return out, nil
		}
		if states != nil {
			states.add(fp.h)
		}
		if pl.abandon || !pl.after(actors) {
			out.dropped = true
			return out, nil
		}
	}
	out.steps = w.Steps()
	if w.Steps() >= b.steps {
		out.cut = true
		out.verdicts = append([]string(nil), r.Checker.Verdicts()...)
	} else {
		_, _ = r.Step() // the world is over: this adds the final verdicts
		out.verdicts = append([]string(nil), r.Verdicts()...)
	}
	out.trace = fp.h
	return out, nil
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fingerprint is an FNV-1a fingerprint of an event stream.
type fingerprint struct{ h uint64 }

func newPrint() *fingerprint { return &fingerprint{h: 14695981039346656037} }

func (p *fingerprint) str(s string) {
	for i := 0; i < len(s); i++ {
		p.h ^= uint64(s[i])
		p.h *= 1099511628211
	}
	p.h ^= 0xff
	p.h *= 1099511628211
}

func (p *fingerprint) add(e *sim.Event) {
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
