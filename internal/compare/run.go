package compare

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
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
		return sim.Text{En: "on " + matchText(t.On), Zh: "在 " + matchText(t.On) + " 时"}
	}
	return sim.Text{En: "at the same step", Zh: "在同一步"}
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

// sameCode reports whether two scenarios run the same code on the same
// world, whatever their faults, recordings and words: then every step of
// one means the same on the other.
func sameCode(a, b *scenario.Scenario) bool {
	strip := func(sc *scenario.Scenario) scenario.Scenario {
		o := *sc
		o.ID, o.Title, o.Lesson, o.Source, o.Catalog, o.Expect = "", sim.Text{}, sim.Text{}, "", nil, nil
		o.Faults, o.Schedule, o.Narration, o.Challenge, o.Seed = nil, nil, nil, nil, 0
		return o
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// played is a run played to its end with the faults it took.
type played struct {
	run   *lesson.Run
	taken []Taken
	hand  int // moves made by hand (recorded step actions)
}

// play runs sc from seed to its end as lesson.Run replays it for every
// viewer (its recorded schedule's faults at their steps, its manual steps
// instead of the engine's choice), noting each fault it takes and where: a
// trigger that names a mark, an expiry or a fault is kept, one on the wire
// becomes the point of the client's progress where it fired; a recorded
// fault of a client, that client's point at the time; any other, its
// instant. places, if any, are faults to take at points of this run's
// progress (a translation of another run's); each one's Right is set where
// it lands. With prefer, clients tied at one instant move in that order
// (race), not by the seed's draw. A run that takes more than b.MaxSteps
// steps (0: no cap but the engine's) is an error; b.Yield is given the run
// after held (the run played before this one, if any). The caller closes
// the run.
func play(sc *scenario.Scenario, seed int64, b Bounds, held *lesson.Run, places []*Taken, prefer []string) (*played, error) {
	maxSteps := b.MaxSteps
	rec := &played{}
	prog := newProgress()
	var last *sim.Event // the latest event of a client's progress
	cfg := lesson.Config{Seed: seed, Servers: embedded.Servers{}}
	if maxSteps > 0 {
		// The world stops at one step more than allowed (capped): a run
		// that takes it is too long. The step that finds nothing left to
		// do and ends the run is counted too, and is not one.
		cfg.MaxSteps = maxSteps + 1
	}
	var w *sim.World
	cfg.Setup = func(r *lesson.Run) {
		w = r.World
		w.Watch(func(e *sim.Event) {
			pl, ok := prog.see(e)
			if !ok {
				return
			}
			last = e
			for _, t := range places {
				if t.Right < 0 && t.Place == pl {
					t.Right = e.Seq
					if err := w.Apply(lesson.SimFault(t.Fault)); err != nil {
						t.Refused = err.Error()
						w.Emit(sim.Event{Kind: sim.KindFault, Name: t.Fault.Do, Client: t.Fault.Client, Node: t.Fault.Node,
							Fact: &fact.Fact{Key: fact.NotApplied, Reason: fact.Error(err)}})
					}
				}
			}
		})
		w.Watch(mirror(sc, func(f scenario.Fault, e *sim.Event) {
			t := Taken{Fault: f, How: Trigger, On: f.On, Left: e.Seq, Right: -1}
			t.Fault.On = nil
			if wire(f.On) {
				if pl, ok := prog.at[threadKey(e)]; ok && placed(e) {
					t.How, t.On, t.Place = AtPlace, nil, pl
				} else {
					t.How, t.On, t.At = Instant, nil, e.T
				}
			}
			rec.taken = append(rec.taken, t)
		}))
	}
	for _, f := range faulty(sc.Faults) {
		if f.At != nil {
			bare := f
			bare.At = nil
			rec.taken = append(rec.taken, Taken{Fault: bare, How: Instant, At: f.At.D(), Left: -1, Right: -1})
		}
	}
	cfg.OnAction = func(a scenario.Action) {
		if a.Do == scenario.StepAction {
			rec.hand++
			return
		}
		t := Taken{Fault: a.Fault, How: Instant, At: w.Now(), Left: -1, Right: -1}
		if last != nil {
			t.Left = last.Seq
		}
		if pl, ok := prog.byCli[a.Client]; ok && a.Client != "" {
			t.How, t.Place = AtPlace, pl
		}
		rec.taken = append(rec.taken, t)
	}
	if prefer != nil {
		cfg.Choose = func(w *sim.World) string { return race(w, prefer) }
	}
	if b.Yield != nil {
		cfg.Yield = func(r *lesson.Run) error {
			if held != nil {
				return b.Yield([]*lesson.Run{held, r})
			}
			return b.Yield([]*lesson.Run{r})
		}
	}
	r, err := lesson.New(sc, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.ID, err)
	}
	rec.run = r
	err = r.RunToEnd()
	if cerr := capped(w, maxSteps); cerr != nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", sc.ID, err)
	}
	return rec, nil
}

// race is the client to move when clients are tied at the next instant:
// the one first in prefer (then the others in prefer's order, then those
// it does not name, by name). The world's own steps of that instant still
// come first: then, as when no clients are tied, it is "", the engine's
// own step.
func race(w *sim.World, prefer []string) string {
	ms := w.Moves(0)
	if len(ms) <= 1 {
		return ""
	}
	if at, ok := w.NextWorld(); ok && at <= ms[0].T {
		return ""
	}
	rank := func(c string) int {
		if i := slices.Index(prefer, c); i >= 0 {
			return i
		}
		return len(prefer)
	}
	pick := ms[0].Client
	for _, m := range ms[1:] {
		if rank(m.Client) < rank(pick) || rank(m.Client) == rank(pick) && m.Client < pick {
			pick = m.Client
		}
	}
	return pick
}

// winners are the clients in the order they first took the lock in a log
// (their first acquired mark).
func winners(log []*sim.Event) []string {
	out := []string{}
	for _, e := range log {
		if e.Kind == sim.KindMark && e.Name == sim.MarkAcquired && !slices.Contains(out, e.Client) {
			out = append(out, e.Client)
		}
	}
	return out
}

func threadKey(e *sim.Event) string {
	th := e.Thread
	if th == "" {
		th = "main"
	}
	return e.Client + "/" + th
}

// mirror watches a run for the moments its on: faults fire, as the
// engine's triggers do (the Nth matching event, once), and tells took
// each fault and the event it fired at.
func mirror(sc *scenario.Scenario, took func(scenario.Fault, *sim.Event)) func(*sim.Event) {
	type trigger struct {
		fault     scenario.Fault
		seen, nth int
	}
	var ts []*trigger
	for _, f := range faulty(sc.Faults) {
		if f.On != nil {
			ts = append(ts, &trigger{fault: f, nth: max(f.On.Nth, 1)})
		}
	}
	return func(e *sim.Event) {
		for _, t := range ts {
			if t.seen < t.nth && lesson.Matches(t.fault.On, e) {
				if t.seen++; t.seen == t.nth {
					took(t.fault, e)
				}
			}
		}
	}
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
			out = append(out, sim.Text{
				En: fmt.Sprintf("No equivalent point on the right: %s %s — no client on the right uses %s, so the fault changes nothing there and the right's verdict does not answer the left's.", f.En, where.En, t.Fault.Node),
				Zh: fmt.Sprintf("右侧没有对应的时机：%s（%s）——右侧没有客户端使用 %s，这个故障在右侧什么也没改变，它的结论回答不了左侧的问题。", f.Zh, where.Zh, t.Fault.Node)})
		case t.Right < 0:
			out = append(out, sim.Text{
				En: fmt.Sprintf("No equivalent point on the right: %s %s — the right run never got there, so it did not face this fault and its verdict does not answer the left's.", f.En, where.En),
				Zh: fmt.Sprintf("右侧没有对应的时机：%s（%s）——右侧的运行从未到达那里，没有经受这个故障，它的结论回答不了左侧的问题。", f.Zh, where.Zh)})
		case t.Refused != "" && !t.leftNoted:
			out = append(out, sim.Text{
				En: fmt.Sprintf("Not applied on the right: %s %s (%s).", f.En, where.En, t.Refused),
				Zh: fmt.Sprintf("右侧没有施加：%s（%s）（%s）。", f.Zh, where.Zh, t.Refused)})
		}
	}
	if hand > 0 {
		moves := fmt.Sprintf("%d moves made by hand are", hand)
		if hand == 1 {
			moves = "move made by hand is"
		}
		out = append(out, sim.Text{
			En: fmt.Sprintf("The left's %s not carried over: %s runs other code, where a step of the left has no equivalent; it moves in the engine's own order.", moves, rightID),
			Zh: fmt.Sprintf("左侧手动走的 %d 步没有带到右侧：%s 运行的是另一段代码，左侧的某一步在那里没有对应；右侧按引擎自己的顺序运行。", hand, rightID)})
	}
	return out
}

// stepTimes are the virtual time each step of a log ends at, by step.
func stepTimes(log []*sim.Event) (steps []int, times []time.Duration) {
	for _, e := range log {
		if n := len(steps); n > 0 && steps[n-1] == e.Step {
			times[n-1] = max(times[n-1], e.T)
			continue
		}
		steps, times = append(steps, e.Step), append(times, e.T)
	}
	return steps, times
}

// byTime gives an event of the right the left's step at which a viewer
// stepping through the left has reached its moment: the first step that
// ends after its virtual time, or the last of the steps that end at it
// (the left has then shown all it does at that moment: at step 0, before
// the clients start, the right's starts at 0s are not shown yet); after
// the left's last step, one more.
func byTime(left []*sim.Event) func(*sim.Event) int {
	steps, times := stepTimes(left)
	return func(e *sim.Event) int {
		i, _ := slices.BinarySearch(times, e.T)
		for i+1 < len(steps) && times[i+1] == e.T {
			i++
		}
		if i < len(steps) {
			return steps[i]
		}
		if len(steps) == 0 {
			return 0
		}
		return steps[len(steps)-1] + 1
	}
}

// capped is ErrTooLong when the world stopped at its cap of maxSteps + 1
// steps (0: no cap but the engine's): it took a step more than maxSteps.
func capped(w *sim.World, maxSteps int) error {
	if maxSteps > 0 && w.Capped() {
		return fmt.Errorf("%w of %d steps", ErrTooLong, maxSteps)
	}
	return nil
}
