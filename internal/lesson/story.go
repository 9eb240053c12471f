package lesson

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The names of the say events a run adds beside its scripted lines.
const (
	SayStory     = "story"      // a line of the story told from the run's events
	SayOffScript = "off-script" // the run has left its lesson's script
)

// Unsaid is a scripted narration line that a run did not say because its
// claim was false at the moment it names.
type Unsaid struct {
	Line int    // index in the scenario's narration
	At   int    // seq of the event the line is attached to
	Why  string // the part of the claim that was false
}

// Unsaid lists the scripted lines not said so far because their claims
// were false.
func (r *Run) Unsaid() []Unsaid { return r.unsaid }

// OffScript reports whether a user action (a fault, a manual step) has
// taken the run off its lesson's script.
func (r *Run) OffScript() bool { return r.offScript }

// LeftScriptAt is the cursor (engine steps) at which a user's action took
// the run off its script, when it is off: up to that cursor the run is the
// lesson's; a chapter found at a later cursor is the lesson's plan, not a
// line of this run.
func (r *Run) LeftScriptAt() (int, bool) { return r.leftAt, r.offScript }

// Telling reports whether the run adds the story told from its events to
// its log: once it is off its script, or from the start when the scenario
// has no scripted narration of its own.
func (r *Run) Telling() bool { return r.offScript || len(r.Scenario.Narration) == 0 }

// ByUser runs a user's action on the run (a fault injected, a client
// stepped by hand). The first event the action logs takes the run off its
// lesson's script: scripted lines stop, a note says so, and the story told
// from the events carries on, starting with where things stand. An action
// that logs nothing (it failed) leaves the run on its script.
func (r *Run) ByUser(act func() error) error {
	r.byUser, r.actingAt = !r.offScript, r.World.Steps()
	defer func() { r.byUser = false }()
	return act()
}

// leaveScript takes the run off its script after event e, the first of a
// user's action.
func (r *Run) leaveScript(e *sim.Event) {
	r.offScript, r.byUser, r.leftAt = true, false, r.actingAt
	if r.Scenario.Challenge != nil && len(r.Scenario.Narration) == 0 {
		return // a challenge run has no script to leave: its story is told from the start
	}
	r.World.Emit(sim.Event{Kind: sim.KindSay, Name: SayOffScript, Refs: []int{e.Seq}, Say: new(fact.Say("lesson.off-script"))})
	if l, ok := r.story.Now(); ok {
		if len(l.Refs) == 0 {
			l.Refs = []int{e.Seq}
		}
		r.World.Emit(sim.Event{Kind: sim.KindSay, Name: SayStory, Say: &l.Text, Refs: l.Refs})
	}
}

// tell feeds each event to the story and, while the run is telling it,
// adds its lines to the log.
func (r *Run) tell(e *sim.Event) {
	if e.Kind == sim.KindSay {
		return
	}
	lines := r.story.Observe(e)
	if r.byUser {
		r.leaveScript(e)
	}
	if !r.Telling() {
		return
	}
	for _, l := range lines {
		r.World.Emit(sim.Event{Kind: sim.KindSay, Name: SayStory, Say: &sim.Text{En: l.Text.En, Zh: l.Text.Zh}, Refs: l.Refs})
	}
}

// falseClaim says which part of a scripted line's claim is false after
// event e, or "" when all of it holds. A line attached to a fault that was
// not applied (a clock jump on a real server) claims that it happened, so
// it is false too.
func (r *Run) falseClaim(c *scenario.Claim, e *sim.Event) string {
	if !e.Applied() {
		return "the " + e.Name + " was not applied"
	}
	if c == nil {
		return ""
	}
	return checkClaim(r.Checker.View(), c, NodeNames(r.Scenario)[0])
}

// checkClaim checks a claim against the checker's model of the run; first
// is the node a claim means when it names none.
func checkClaim(m check.View, c *scenario.Claim, first string) string {
	for _, name := range c.Inside {
		if !m.Inside(name) {
			return name + " is not inside"
		}
	}
	for _, name := range c.Outside {
		if m.Inside(name) {
			return name + " is inside"
		}
	}
	at := func(k scenario.KeyHold) (string, string) {
		node, key := k.Node, k.Key
		if node == "" {
			node = first
		}
		if key == "" {
			key = "lock"
		}
		return node, key
	}
	for _, k := range c.Holds {
		node, key := at(k)
		if _, hs, _ := m.Key(node, key); !slices.ContainsFunc(hs, func(h check.Holder) bool { return h.Client == k.Client }) {
			return fmt.Sprintf("%s on %s holds %s, not %s's lock", key, node, ownerText(m, node, key), k.Client)
		}
	}
	for _, k := range c.Free {
		node, key := at(k)
		if _, _, ok := m.Key(node, key); ok {
			return fmt.Sprintf("%s on %s exists (%s)", key, node, ownerText(m, node, key))
		}
	}
	if c.Together != nil && *c.Together != m.EverTogether() {
		if *c.Together {
			return "no two clients have been inside together"
		}
		var in []string
		for _, i := range m.Insiders() {
			in = append(in, i.Who)
		}
		return "two clients have been inside together: " + strings.Join(in, ", ")
	}
	return ""
}

// ownerText says what a key holds, for a false claim's reason.
func ownerText(m check.View, node, key string) string {
	_, hs, ok := m.Key(node, key)
	switch {
	case !ok:
		return "nothing (the key is gone)"
	case len(hs) == 0:
		return "nobody's lock value"
	}
	var who []string
	for _, h := range hs {
		if !slices.Contains(who, h.Client) {
			who = append(who, h.Client)
		}
	}
	return strings.Join(who, "'s and ") + "'s lock"
}

// narrate attaches the scenario's narration to the moments it names. A
// line is said only while the run is on its script, and only if its claim
// holds.
func (r *Run) narrate() {
	w := r.World
	for i := range r.Scenario.Narration {
		n := r.Scenario.Narration[i]
		text := n.Text
		fired := false
		var match func(*sim.Event) bool
		switch {
		case n.On != nil:
			match = matcher(n.On)
		case n.At != nil:
			at := n.At.D()
			match = func(e *sim.Event) bool { return e.T >= at && e.Kind != sim.KindSay }
		default:
			match = func(e *sim.Event) bool { return e.Kind != sim.KindSay }
		}
		w.Watch(func(e *sim.Event) {
			if fired || r.offScript || !match(e) {
				return
			}
			fired = true
			if why := r.falseClaim(n.Claim, e); why != "" {
				r.unsaid = append(r.unsaid, Unsaid{Line: i, At: e.Seq, Why: why})
				return
			}
			w.Emit(sim.Event{Kind: sim.KindSay, Say: &sim.Text{En: text.En, Zh: text.Zh}, Refs: []int{e.Seq}})
		})
	}
}
