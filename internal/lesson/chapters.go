package lesson

import (
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Chapter is one beat of a lesson's story: a scripted narration line and
// the step of the lesson's own run at which it is said.
type Chapter struct {
	Step int      `json:"step"` // the cursor that shows the line
	Seq  int      `json:"seq"`  // the say event
	Text sim.Text `json:"text"`
}

// IsBeat reports whether an event is a beat of the lesson's story: one of
// its scripted narration lines (not a line of the story told from the
// events, nor the note that the run left its script).
func IsBeat(e *sim.Event) bool { return e.Kind == sim.KindSay && e.Name == "" }

// Chapters runs a scenario's own run (its recorded schedule included) on
// embedded Redis and lists its beats in order. A scenario without
// narration has none. The run stops once every scripted line is said or
// passed over, or at maxSteps.
func Chapters(sc *scenario.Scenario, seed int64, maxSteps int) ([]Chapter, error) {
	if len(sc.Narration) == 0 {
		return nil, nil
	}
	s, err := NewSession(sc, seed)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var out []Chapter
	seen := 0
	for len(out)+len(s.run.unsaid) < len(sc.Narration) && s.Cursor() < maxSteps {
		ok, err := s.Step()
		if err != nil {
			return out, err
		}
		log := s.Log()
		for _, e := range log[seen:] {
			if IsBeat(e) {
				out = append(out, Chapter{Step: e.Step, Seq: e.Seq, Text: *e.Say})
			}
		}
		seen = len(log)
		if !ok {
			break
		}
	}
	return out, nil
}
