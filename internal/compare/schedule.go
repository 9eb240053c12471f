package compare

import (
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Schedule is the order in which a run's clients moved and the faults it
// took, in the form another run replays (see the package doc).
type Schedule struct {
	Before []sim.Fault // faults taken before the first step (a recording's step-0 actions)
	Moves  []Move      // the steps, in order: client moves and the world's own steps
}

// Move is one entry of a schedule: Client makes its next move, or, when
// Client is "", the world takes its own next step (an expiry, a timed
// fault, replication).
type Move struct {
	Client string
	Thread string        // the client's thread that moved ("main", "req2"...)
	Step   int           // the step of the recorded run that made the move
	T      time.Duration // its virtual time there
	Then   []Anchored    // faults taken during or right after the move
}

// Anchored is a fault taken during a move, after its After-th event
// (narration and verdicts not counted), or right after the move when After
// is 0.
type Anchored struct {
	After int
	Fault sim.Fault
}

// ClientMoves counts the schedule's client moves (not the world's own steps).
func (s Schedule) ClientMoves() int {
	n := 0
	for _, m := range s.Moves {
		if m.Client != "" {
			n++
		}
	}
	return n
}

// counts reports whether an event counts in a move's position: narration
// and verdicts are commentary on the move, not part of it.
func counts(e *sim.Event) bool { return e.Kind != sim.KindSay && e.Kind != sim.KindVerdict }

// record runs sc from seed to its end, playing its recorded schedule as
// lesson.Run does for every viewer (its faults at their steps, its manual
// steps instead of the engine's choice), and returns the run and its
// schedule. The caller closes the run. A run that takes more than
// maxSteps steps (0: no cap but the engine's) is an error.
func record(sc *scenario.Scenario, seed int64, maxSteps int) (*lesson.Run, Schedule, error) {
	var sched Schedule
	var fired []Anchored
	inStep, seen := -1, 0 // events counted so far in step inStep
	r, err := lesson.New(sc, lesson.Config{Seed: seed, Servers: embedded.Servers{},
		OnFault: func(f sim.Fault) { fired = append(fired, Anchored{Fault: f}) }})
	if err != nil {
		return nil, sched, fmt.Errorf("%s: %w", sc.ID, err)
	}
	w := r.World
	w.Watch(func(e *sim.Event) {
		if e.Step != inStep {
			inStep, seen = e.Step, 0
		}
		if counts(e) {
			seen++
		}
	})
	w.Watch(mirror(sc, func(f sim.Fault) { fired = append(fired, Anchored{After: seen, Fault: f}) }))
	fail := func(err error) (*lesson.Run, Schedule, error) {
		r.Close()
		return nil, sched, fmt.Errorf("%s: %w", sc.ID, err)
	}
	for _, a := range fired {
		sched.Before = append(sched.Before, a.Fault)
	}
	fired = nil
	for {
		ok, err := r.Step()
		if err != nil {
			return fail(err)
		}
		if !ok {
			break
		}
		if err := capped(w, maxSteps); err != nil {
			return fail(err)
		}
		sched.Moves = append(sched.Moves, Move{Client: w.Mover(), Thread: w.MoverThread(), Step: w.Steps(), T: w.Now(), Then: fired})
		fired = nil
	}
	if err := r.RunToEnd(); err != nil { // the end: every recorded action was reached
		return fail(err)
	}
	return r, sched, nil
}

// mirror watches a run for the moments its on: faults fire, as the
// engine's triggers do (the Nth matching event, once), and tells took
// each fault as it fires.
func mirror(sc *scenario.Scenario, took func(sim.Fault)) func(*sim.Event) {
	type trigger struct {
		on        *scenario.Match
		fault     sim.Fault
		seen, nth int
	}
	var ts []*trigger
	for _, f := range sc.Faults {
		if f.On != nil {
			ts = append(ts, &trigger{on: f.On, fault: lesson.SimFault(f), nth: max(f.On.Nth, 1)})
		}
	}
	return func(e *sim.Event) {
		for _, t := range ts {
			if t.seen < t.nth && lesson.Matches(t.on, e) {
				if t.seen++; t.seen == t.nth {
					took(t.fault)
				}
			}
		}
	}
}

// capped is ErrTooLong once w has taken more than maxSteps steps (0: no
// cap).
func capped(w *sim.World, maxSteps int) error {
	if maxSteps > 0 && w.Steps() > maxSteps {
		return fmt.Errorf("%w of %d steps", ErrTooLong, maxSteps)
	}
	return nil
}
