package lesson

import (
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// reach is the moment a run reached its challenge's goal.
type reach struct {
	seq    int       // the verdict event, or the event that made a verdict of the horizon true
	moves  int       // moves taken by then: steps and faults
	faults int       // faults injected by then
	refs   []int     // the events that prove it
	why    *sim.Text // the checker's explanation
}

// Progress is how far a session is with its scenario's challenge, at the
// cursor.
type Progress struct {
	Moves   int       `json:"moves"`             // moves taken: every step (by hand or the engine's) and every fault injected
	Faults  int       `json:"faults"`            // faults injected
	Reached bool      `json:"reached"`           // the checker has found the goal
	At      int       `json:"at,omitempty"`      // the event at which it was reached
	MovesAt int       `json:"movesAt,omitempty"` // the moves taken by then
	Won     bool      `json:"won"`               // reached within the limits
	Over    bool      `json:"over"`              // not won, and no longer winnable on this branch: moves used up, too many faults, or the run over
	Refs    []int     `json:"refs,omitempty"`    // the events that prove the goal, for the debrief's links
	Why     *sim.Text `json:"why,omitempty"`     // the checker's explanation of the verdict
	Reason  string    `json:"reason,omitempty"`  // why it is over: "moves", "faults" or "ended"
}

// watchGoal records the first moment the run reaches its challenge's goal:
// the verdict event, as the checker reports it, or for an oversell or a
// lost update, the event that made it true (check.Checker.Reached).
func (r *Run) watchGoal() {
	g := r.Scenario.Challenge.Goal
	r.World.Watch(func(e *sim.Event) {
		if r.reach != nil || e.Kind == sim.KindSay {
			return
		}
		cands := []sim.Event{*e}
		if e.Kind != sim.KindVerdict {
			cands = r.Checker.Reached()
		}
		for _, v := range cands {
			if r.meets(g, &v) {
				r.reach = &reach{seq: e.Seq, moves: e.Step + r.userFaults, faults: r.userFaults, refs: v.Refs, why: v.Say}
				return
			}
		}
	})
}

// meets reports whether verdict v is the goal: its name, and the clients
// of its last (by) and first (of) proving events when the goal names them.
func (r *Run) meets(g scenario.Goal, v *sim.Event) bool {
	if v.Kind != sim.KindVerdict || v.Name != g.Verdict {
		return false
	}
	if g.By == "" && g.Of == "" {
		return true
	}
	if len(v.Refs) == 0 {
		return false
	}
	log := r.World.Log()
	client := func(seq int) string {
		if seq < 1 || seq > len(log) {
			return ""
		}
		return log[seq-1].Client
	}
	return (g.By == "" || client(v.Refs[len(v.Refs)-1]) == g.By) && (g.Of == "" || client(v.Refs[0]) == g.Of)
}

// Challenge is the session's progress with its scenario's challenge, or
// nil when the scenario has none.
func (s *Session) Challenge() *Progress {
	ch := s.sc.Challenge
	if ch == nil {
		return nil
	}
	r := s.run
	p := &Progress{Moves: s.Cursor() + r.userFaults, Faults: r.userFaults}
	tooMany := func(moves, faults int) string {
		switch {
		case moves > ch.Moves:
			return "moves"
		case ch.Faults != nil && faults > *ch.Faults:
			return "faults"
		}
		return ""
	}
	if g := r.reach; g != nil {
		p.Reached, p.At, p.MovesAt, p.Refs, p.Why = true, g.seq, g.moves, g.refs, g.why
		p.Reason = tooMany(g.moves, g.faults)
		p.Won = p.Reason == ""
		p.Over = !p.Won
		return p
	}
	p.Reason = tooMany(p.Moves, p.Faults)
	if p.Reason == "" && p.Moves == ch.Moves {
		p.Reason = "moves" // the next move would be one too many
	}
	if p.Reason == "" && r.World.Ended() {
		p.Reason = "ended"
	}
	p.Over = p.Reason != ""
	return p
}
