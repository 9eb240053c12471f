package compare

import (
	"github.com/lockstep/lockstep/internal/fact"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// replay runs sc from seed under another run's schedule (the rule is in
// the package doc) and returns the run at its end, the number of schedule
// entries that were no move here, and for each event (by sequence number)
// the step of the recorded run whose entry was being replayed when it
// happened (0 before the first entry, after the last one the recorded
// run's last step plus one). sc's own faults must already be reduced to
// the schedule's at: faults (see underSchedule). A run that takes more
// than maxSteps steps (0: no cap but the engine's) is an error. The caller
// closes the run.
func replay(sc *scenario.Scenario, seed int64, s Schedule, maxSteps int) (*lesson.Run, int, map[int]int, error) {
	r, err := lesson.Build(sc, seed)
	if err != nil {
		return nil, 0, nil, err
	}
	w := r.World
	at, entry := map[int]int{}, 0
	w.Watch(func(e *sim.Event) { at[e.Seq] = entry })
	for _, f := range s.Before {
		take(w, f)
	}
	// The faults anchored inside the entry being replayed, taken as the
	// move's events reach their position.
	var due []Anchored
	seen := 0
	w.Watch(func(e *sim.Event) {
		if !counts(e) {
			return
		}
		seen++
		for len(due) > 0 && due[0].After > 0 && due[0].After <= seen {
			f := due[0].Fault
			due = due[1:]
			take(w, f)
		}
	})
	void := 0
	for _, m := range s.Moves {
		due, seen, entry = m.Then, 0, m.Step
		if !stepAs(w, m) {
			void++
		}
		for _, a := range due {
			take(w, a.Fault) // the move had fewer events, or was void here
		}
		due = nil
		if err := capped(w, maxSteps); err != nil {
			r.Close()
			return nil, 0, nil, err
		}
	}
	if n := len(s.Moves); n > 0 {
		entry = s.Moves[n-1].Step + 1
	}
	for r.Step() {
		if err := capped(w, maxSteps); err != nil {
			r.Close()
			return nil, 0, nil, err
		}
	}
	return r, void, at, nil
}

// stepAs takes one entry of a schedule: the move of the entry's client
// (its thread's next move, else the client's next), after the world's own
// steps due before it; or, for an entry of the world, its own next step if
// one is due no later than every client's move. It reports false when the
// entry is no step here.
func stepAs(w *sim.World, m Move) bool {
	if w.Ended() {
		return false
	}
	if m.Client == "" {
		if at, ok := w.NextWorld(); !ok || at > earliestMove(w) {
			return false
		}
		return w.StepWorld()
	}
	at, ok := moveDue(w, m)
	if !ok {
		// Perhaps the world owes it one (a pause that ends): the world's
		// steps due before every client's next move come first.
		catchUp(w, earliestMove(w))
		if at, ok = moveDue(w, m); !ok {
			return false
		}
	}
	catchUp(w, at)
	var moved bool
	var err error
	if _, ok := w.ThreadMove(m.Client, m.Thread); ok {
		moved, err = w.StepThread(m.Client, m.Thread)
	} else {
		moved, err = w.StepClient(m.Client) // false: a world step took it away (a pause, a crash)
	}
	return err == nil && moved
}

// moveDue is when the entry's move is due: its thread's next move, else
// its client's.
func moveDue(w *sim.World, m Move) (time.Duration, bool) {
	if at, ok := w.ThreadMove(m.Client, m.Thread); ok {
		return at, true
	}
	return nextMove(w, m.Client)
}

// catchUp takes the world's own steps due before limit. One due at limit
// waits: the schedule's own world entries order the steps of one instant.
func catchUp(w *sim.World, limit time.Duration) {
	for {
		at, ok := w.NextWorld()
		if !ok || at >= limit || !w.StepWorld() {
			return
		}
	}
}

// nextMove is when client's next move is due.
func nextMove(w *sim.World, client string) (time.Duration, bool) {
	for _, m := range w.Moves(w.Config().Horizon) {
		if m.Client == client {
			return m.T, true
		}
	}
	return 0, false
}

// earliestMove is when the first client move is due (past the horizon
// when no client has one).
func earliestMove(w *sim.World) time.Duration {
	at := w.Config().Horizon + 1
	for _, m := range w.Moves(w.Config().Horizon) {
		at = min(at, m.T)
	}
	return at
}

// take applies a fault of the schedule; one that does not apply here is
// logged as not applied, as the engine logs a trigger's refused fault.
func take(w *sim.World, f sim.Fault) {
	if err := w.Apply(f); err != nil {
		w.Emit(sim.Event{Kind: sim.KindFault, Name: string(f.Kind), Client: f.Client, Node: f.Node,
			Fact: &fact.Fact{Key: fact.NotApplied, Reason: fact.Error(err)}})
	}
}
