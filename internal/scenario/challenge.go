package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Challenge is a goal the learner must reach as the scheduler: stepping
// clients by hand and injecting faults, within a number of moves. A
// challenge run is the scenario without its scripted narration and, unless
// KeepFaults, without its faults: the learner places them. The checker
// decides: the goal is a verdict it gives, reached the moment the checker
// can tell.
type Challenge struct {
	sim.Text   `yaml:",inline" json:",inline"` // the goal as the learner reads it
	Goal       Goal                            `yaml:"goal" json:"goal"`
	Moves      int                             `yaml:"moves" json:"moves"`                                 // the most moves: every step (a client's by hand, or the engine's own) and every fault
	Faults     *int                            `yaml:"faults,omitempty" json:"faults,omitempty"`           // the most faults among them; unset: no limit but moves
	KeepFaults []int                           `yaml:"keep_faults,omitempty" json:"keep_faults,omitempty"` // the scenario's own faults that stay in the challenge run, by position in faults: (from 0)
	Hints      []sim.Text                      `yaml:"hints,omitempty" json:"hints,omitempty"`             // shown one at a time, on request
	Debrief    sim.Text                        `yaml:"debrief" json:"debrief"`                             // shown once the goal is reached or the moves are used up
}

// Goal is a checker verdict, and optionally who caused it and whom it hit:
// the clients of its last and first proving events (docs/verdicts.md lists
// them: for foreign-unlock the remover and the victim's acquire, for
// mutual-exclusion the second and first entrant, for stale-write the writer).
type Goal struct {
	Verdict string `yaml:"verdict" json:"verdict"`
	By      string `yaml:"by,omitempty" json:"by,omitempty"` // the client of the verdict's last proving event
	Of      string `yaml:"of,omitempty" json:"of,omitempty"` // the client of its first proving event
}

// The schema's required fields and descriptions of a challenge.
func init() {
	schemaRequired["Challenge"] = []string{"en", "goal", "moves", "debrief"}
	schemaRequired["Goal"] = []string{"verdict"}
	for k, v := range map[string]string{
		"Scenario.challenge":    "A goal the learner reaches by scheduling the run by hand, within a number of moves.",
		"Challenge.goal":        "The checker verdict to reach, optionally who causes it (by) and whom it hits (of).",
		"Challenge.moves":       "The most moves: each step, by hand or the engine's, and each fault is one.",
		"Challenge.faults":      "The most faults among the moves. Unset: no limit but moves.",
		"Challenge.keep_faults": "The scenario's own faults that stay in the challenge run, by position in faults: from 0. Default: none, the learner places them.",
		"Challenge.hints":       "Hints, shown one at a time on request.",
		"Challenge.debrief":     "What the learner should take away, shown once the goal is reached or the moves are used up.",
		"Goal.verdict":          "A verdict the checker gives.",
		"Goal.by":               "The client of the verdict's last proving event (the remover, the second entrant, the writer).",
		"Goal.of":               "The client of the verdict's first proving event (the victim's acquire, the first entrant).",
	} {
		schemaDocs[k] = v
	}
}

// MaxChallengeMoves and MaxHints bound a challenge.
const (
	MaxChallengeMoves = 10000
	MaxHints          = 10
)

// ChallengeRun is the scenario a challenge runs: the same nodes, data and
// clients, without the recorded schedule, the scripted narration (the
// story is told from the events) and the scripted faults but those the
// challenge keeps. It returns sc itself when sc has no challenge.
func ChallengeRun(sc *Scenario) *Scenario {
	if sc.Challenge == nil {
		return sc
	}
	out := *sc
	out.Narration, out.Schedule, out.Explore = nil, nil, nil
	out.Faults = nil
	for _, i := range sc.Challenge.KeepFaults {
		if i >= 0 && i < len(sc.Faults) {
			out.Faults = append(out.Faults, sc.Faults[i])
		}
	}
	return &out
}

// challenge checks a scenario's challenge: its goal names a verdict and
// the scenario's own clients, its limits are sensible, and it has its
// texts.
func (c *validator) challenge(s *Scenario, p string, sc *scope) {
	ch := s.Challenge
	if ch == nil {
		return
	}
	cp := p + ".challenge"
	if strings.TrimSpace(ch.En) == "" {
		c.at(cp+".en", fact.Say("scenario.challenge-needs-en-text-the"))
	}
	switch v := ch.Goal.Verdict; {
	case v == "":
		c.at(cp+".goal.verdict", fact.Say("scenario.challenges-goal-needs-a-verdict"))
	case !slices.Contains(sim.Verdicts, v):
		c.unknownName(cp+".goal.verdict", "verdict", v, sim.Verdicts)
	case v == sim.VerdictSafe && (ch.Goal.By != "" || ch.Goal.Of != ""):
		c.at(cp+".goal", fact.Say("scenario.safe-is-proved-by-no"))
	}
	for _, who := range []struct{ key, name string }{{"by", ch.Goal.By}, {"of", ch.Goal.Of}} {
		if who.name != "" && !slices.Contains(sc.clients, who.name) {
			c.undeclared(cp+".goal."+who.key, "client", who.name, sc.clients)
		}
	}
	switch {
	case !c.has(cp + ".moves"):
		c.at(cp, fact.Say("scenario.challenge-needs-moves-the-most"))
	case ch.Moves < 1:
		c.at(cp+".moves", fact.Say("scenario.moves-must-be-at-least", ch.Moves))
	case ch.Moves > MaxChallengeMoves:
		c.at(cp+".moves", fact.Say("scenario.moves-is-over-the-limit", ch.Moves, MaxChallengeMoves))
	}
	if f := ch.Faults; f != nil && (*f < 0 || ch.Moves > 0 && *f > ch.Moves) {
		c.at(cp+".faults", fact.Say("scenario.faults-must-be-between-0", ch.Moves, *f))
	}
	for i, k := range ch.KeepFaults {
		if k < 0 || k >= len(s.Faults) {
			c.at(fmt.Sprintf("%s.keep_faults[%d]", cp, i), fact.Say("scenario.keep-faults-names-faults-by", len(s.Faults), k))
		}
	}
	if len(ch.Hints) > MaxHints {
		c.at(cp+".hints", fact.Say("scenario.too-many-hints", len(ch.Hints), MaxHints))
	}
	for i, h := range ch.Hints {
		if strings.TrimSpace(h.En) == "" {
			c.at(fmt.Sprintf("%s.hints[%d].en", cp, i), fact.Say("scenario.hint-needs-en-text"))
		}
	}
	if strings.TrimSpace(ch.Debrief.En) == "" {
		c.at(cp+".debrief.en", fact.Say("scenario.challenge-needs-a-debrief-with"))
	}
}
