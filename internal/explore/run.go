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
	start := time.Now()
	x := &execution{p: p, r: r, w: r.World, b: b, dec: dec, states: states, stop: stop, out: &outcome{}, fp: newPrint()}
	defer func() { x.out.took = time.Since(start) }()
	x.pl = newPlacer(x.w, b, dec, x.out)
	x.w.Watch(x.watch)
	if err := x.run(); err != nil {
		return nil, err
	}
	return x.out, nil
}

// execution is one schedule that execute runs.
type execution struct {
	p      *pacer
	r      *lesson.Run
	w      *sim.World
	b      bounds
	dec    decider
	states *stateSet
	stop   func([]string) bool
	out    *outcome
	fp     *fingerprint
	pl     *placer
	actors []string // the clients that acted in the step being taken
}

// watch sees every event of the run: it adds it to the fingerprint, notes
// its client as an actor, and offers the budget's faults at a mark.
func (x *execution) watch(e *sim.Event) {
	x.fp.add(e)
	if e.Client != "" && !containsStr(x.actors, e.Client) {
		x.actors = append(x.actors, e.Client)
	}
	if e.Kind == sim.KindMark && e.Client != "" {
		x.pl.mark(e)
	} else if e.Client != "" {
		x.pl.point(e)
	}
}

// run places the faults of the start, then steps until the run ends, the
// step cap cuts it, the checker's verdicts satisfy stop, or the decider
// abandons it (out.dropped).
func (x *execution) run() error {
	if !x.pl.after(x.w.ClientNames()) {
		x.out.dropped = true
		return nil
	}
	// At the step cap no client may move any more (a cut schedule).
	for x.w.Steps() < x.b.steps {
		if !x.p.step() {
			return errStopped
		}
		ok, err := x.takeStep()
		if err != nil || x.out.dropped {
			return err
		}
		if !ok {
			break
		}
		if x.stopped() {
			return nil
		}
		if x.states != nil {
			x.states.add(x.fp.h)
		}
		if x.pl.abandon || !x.pl.after(x.actors) {
			x.out.dropped = true
			return nil
		}
	}
	x.end()
	return nil
}

// takeStep takes one step: the decider's choice of move when two or more
// clients may move, else the engine's own. It returns false when the run
// is over; out.dropped when the decider abandoned the schedule.
func (x *execution) takeStep() (bool, error) {
	cursor := x.w.Steps()
	moves := x.w.Moves(x.b.window)
	x.actors = x.actors[:0]
	if len(moves) >= 2 {
		return x.chooseMove(cursor, moves)
	}
	var only *sim.Move
	if len(moves) == 1 && moves[0].Next {
		only = &moves[0]
	}
	ok := x.w.Step()
	if ok && (x.pl.abandon || !x.dec.stepped(only)) {
		x.out.dropped = true
	}
	return ok, nil
}

// chooseMove lets the decider choose which of moves is taken at step
// cursor, takes it and records it as a manual step.
func (x *execution) chooseMove(cursor int, moves []sim.Move) (bool, error) {
	d := &decision{moves: true, step: cursor, opts: make([]option, len(moves))}
	for i, m := range moves {
		d.opts[i] = option{move: m}
	}
	i := x.dec.choose(d)
	if i < 0 {
		x.out.dropped = true
		return true, nil
	}
	name := moves[i].Client
	ok, err := x.w.StepClient(name)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("explore: client %s had no move at step %d", name, cursor)
	}
	x.out.actions = append(x.out.actions, scenario.Action{Step: cursor, Fault: scenario.Fault{Do: scenario.StepAction, Client: name}})
	return true, nil
}

// stopped reports whether the verdicts the checker reported as they
// happened satisfy stop, and then ends the outcome with them.
func (x *execution) stopped() bool {
	vs := x.r.Checker.Verdicts()
	if x.stop == nil || len(vs) == 0 || !x.stop(vs) {
		return false
	}
	x.out.steps, x.out.verdicts, x.out.trace = x.w.Steps(), append([]string(nil), vs...), x.fp.h
	return true
}

// end ends the outcome of a run that ended or was cut: a cut run has the
// verdicts found so far, an ended one its final verdicts.
func (x *execution) end() {
	x.out.steps = x.w.Steps()
	if x.w.Steps() >= x.b.steps {
		x.out.cut = true
		x.out.verdicts = append([]string(nil), x.r.Checker.Verdicts()...)
	} else {
		_, _ = x.r.Step() // the world is over: this adds the final verdicts
		x.out.verdicts = append([]string(nil), x.r.Verdicts()...)
	}
	x.out.trace = x.fp.h
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
// cap, past which it only counts what it already holds: it never holds
// more than cap*StateBytes of memory (cap: Options.States).
type stateSet struct {
	m   map[uint64]struct{}
	cap int
}

func newStateSet(most int) *stateSet { return &stateSet{m: map[uint64]struct{}{}, cap: most} }

func (s *stateSet) add(h uint64) {
	if len(s.m) < s.cap {
		s.m[h] = struct{}{}
	}
}

func (s *stateSet) len() int { return len(s.m) }
