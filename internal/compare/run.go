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
		w.Watch(applyAtPlaces(w, prog, places, &last))
		w.Watch(rec.tookOnEvents(sc, prog))
	}
	rec.tookAtTimes(sc)
	cfg.OnAction = func(a scenario.Action) { rec.tookByHand(a, w, prog, last) }
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

// applyAtPlaces is the watcher that applies each of places when the run
// reaches its place in a client's progress, and keeps the latest event of
// a client's progress in last.
func applyAtPlaces(w *sim.World, prog *progress, places []*Taken, last **sim.Event) func(*sim.Event) {
	return func(e *sim.Event) {
		pl, ok := prog.see(e)
		if !ok {
			return
		}
		*last = e
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
	}
}

// tookOnEvents is the watcher that notes each fault sc takes on an event:
// at the place in a client's progress it lands on, or at its instant.
func (rec *played) tookOnEvents(sc *scenario.Scenario, prog *progress) func(*sim.Event) {
	return mirror(sc, func(f scenario.Fault, e *sim.Event) {
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
	})
}

// tookAtTimes notes sc's faults at a virtual time, at their instants.
func (rec *played) tookAtTimes(sc *scenario.Scenario) {
	for _, f := range faulty(sc.Faults) {
		if f.At != nil {
			bare := f
			bare.At = nil
			rec.taken = append(rec.taken, Taken{Fault: bare, How: Instant, At: f.At.D(), Left: -1, Right: -1})
		}
	}
}

// tookByHand notes a recorded action: a hand step is counted; a fault is
// taken at its client's place, or at the instant, after last.
func (rec *played) tookByHand(a scenario.Action, w *sim.World, prog *progress, last *sim.Event) {
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
