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

// Chapters lists a lesson's chapters, from a run of its own built as cfg
// says, of at most maxSteps steps. A lesson without scripted narration has
// none.
func Chapters(sc *scenario.Scenario, cfg Config, maxSteps int) ([]Chapter, error) {
	f, err := FindChapters(sc, cfg)
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	for f.Session().Cursor() < maxSteps {
		more, err := f.Step()
		if err != nil {
			return f.Chapters(), err
		}
		if !more {
			break
		}
	}
	return f.Chapters(), nil
}

// ChapterFinder runs a lesson to find its chapters one step at a time, so
// that a server can run it in slices beside other work.
type ChapterFinder struct {
	s    *Session
	out  []Chapter
	seen int
}

// FindChapters starts a run of sc, built as cfg says, to find its
// chapters; nil when it has no scripted narration.
func FindChapters(sc *scenario.Scenario, cfg Config) (*ChapterFinder, error) {
	if len(sc.Narration) == 0 {
		return nil, nil
	}
	s, err := NewSession(sc, cfg)
	if err != nil {
		return nil, err
	}
	return &ChapterFinder{s: s}, nil
}

// Step takes one step of the run; false once every scripted line has been
// said (or can no longer be) or the run has ended.
func (f *ChapterFinder) Step() (bool, error) {
	if f.done() {
		return false, nil
	}
	ok, err := f.s.Step()
	if err != nil {
		return false, err
	}
	log := f.s.Log()
	for _, e := range log[f.seen:] {
		if IsBeat(e) {
			f.out = append(f.out, Chapter{Step: e.Step, Seq: e.Seq, Text: *e.Say})
		}
	}
	f.seen = len(log)
	return ok && !f.done(), nil
}

// done reports whether every scripted line has been said or passed over.
func (f *ChapterFinder) done() bool {
	return len(f.out)+len(f.s.run.unsaid) >= len(f.s.Scenario().Narration)
}

// Chapters are the chapters found so far.
func (f *ChapterFinder) Chapters() []Chapter { return f.out }

// Session is the run the finder steps.
func (f *ChapterFinder) Session() *Session { return f.s }

// Close releases the run.
func (f *ChapterFinder) Close() { f.s.Close() }
