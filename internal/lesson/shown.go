package lesson

import (
	"github.com/lockstep/lockstep/internal/sim"
)

// Shown is a line of a run's story that the page shows at a cursor: a say
// event of the run (a scripted line, a line told from the events, the
// off-script note) in "What is happening", or a chapter in the chapter
// list. Seq is the say event; the events the line speaks of are that
// event's refs.
type Shown struct {
	Text    sim.Text
	Seq     int
	Chapter bool // a chapter (the lesson's own run said it), not a say of this run
}

// ShownAt is what the page tells of a run's story at cursor step, from
// the run's log up to there and the lesson's chapters: every say event
// the log holds, and the chapters whose step the cursor has reached (a
// chapter ahead is not listed, only counted). Nothing else: before the
// first say event the narration panel says that the story is told as it
// happens (the page's words), never the lesson's paragraph, which tells
// how the run ends. The page follows the same rule (panels.js
// renderNarration, chapters.js); TestNarrationSpeaksOnlyOfThePast holds
// every lesson to it.
func ShownAt(log []*sim.Event, chapters []Chapter, step int) []Shown {
	var out []Shown
	for _, e := range log {
		if e.Kind == sim.KindSay && e.Step <= step && e.Say != nil {
			out = append(out, Shown{Text: *e.Say, Seq: e.Seq})
		}
	}
	for _, c := range chapters {
		if c.Step <= step {
			out = append(out, Shown{Text: c.Text, Seq: c.Seq, Chapter: true})
		}
	}
	return out
}
