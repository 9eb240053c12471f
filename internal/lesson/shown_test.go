package lesson

import (
	"fmt"
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// At every step of every lesson of the catalogue (and every lab), in both
// languages, no line of the story the page shows (ShownAt: "What is
// happening" and the chapter list) speaks of an event the run has not
// reached.
//
// Each line is a say event whose refs are the events it speaks of (a
// scripted line: the event it is attached to; a line told from the
// events: the events it describes). The test does not take the line's
// word for when those happened: it looks each ref up in the log of the
// run and reads the step that produced it, and a line that is no say
// event of the run (the lesson's paragraph, which tells how the run ends)
// speaks of the run to its last step. Every such step must be at most the
// cursor.
//
// It catches the blind-DEL example: at step 12 of
// blind-del-slow-release no say event has happened yet, and the page
// showed the lesson's paragraph ("…A's blind DEL then frees B's lock and
// C enters beside B."), whose latest event is the end of the run, far
// past 12; the chapter list held "A wakes up and runs DEL lock…", said at
// the DEL's step. Both fail the check. A line in one language only fails
// too: both are the same line, so each must be there.
func TestNarrationSpeaksOnlyOfThePast(t *testing.T) {
	all := catalog(t).Scenarios
	names, files := lockstep.Labs() // the labs the page lists too
	for i, n := range names {
		f, err := scenario.ParseBuiltin(n, files[i])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, f.Scenarios...)
	}
	chaptered := 0
	for i := range all {
		sc := &all[i]
		if len(sc.Narration) > 0 {
			chaptered++
		}
		t.Run(sc.ID, func(t *testing.T) {
			chapters, err := Chapters(sc, cfg(sc.Seed), 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			// The whole run, to look up the events the chapters speak of
			// (the chapters come from a run of their own, the same seed).
			whole, err := NewSession(sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			defer whole.Close()
			if err := whole.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			full, last := bySeq(whole.Log())

			s, err := NewSession(sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for {
				at := s.Cursor()
				for _, l := range ShownAt(s.Log(), chapters, at) {
					if l.Text.En == "" || l.Text.Zh == "" {
						t.Fatalf("step %d: a line in one language only: %q / %q", at, l.Text.En, l.Text.Zh)
					}
					if upto := latest(l, full, last); upto > at {
						t.Fatalf("step %d shows %q (中文 %q), which speaks of step %d", at, l.Text.En, l.Text.Zh, upto)
					}
				}
				more, err := s.Step()
				if err != nil {
					t.Fatal(err)
				}
				if !more {
					break
				}
			}
		})
	}
	if chaptered < 20 {
		t.Fatalf("%d scenarios with chapters: the catalogue did not load", chaptered)
	}
}

// bySeq indexes a log by seq, with the step of its last event.
func bySeq(log []*sim.Event) (map[int]*sim.Event, int) {
	m := map[int]*sim.Event{}
	last := 0
	for _, e := range log {
		m[e.Seq] = e
		last = max(last, e.Step)
	}
	return m, last
}

// latest is the step of the latest event l speaks of, read from the log:
// the say event itself and each event it refers to; a line that is no say
// event of the run speaks of it all, to its last step.
func latest(l Shown, log map[int]*sim.Event, last int) int {
	say, ok := log[l.Seq]
	if !ok || say.Kind != sim.KindSay {
		return last
	}
	upto := say.Step
	for _, r := range say.Refs {
		e, ok := log[r]
		if !ok {
			panic(fmt.Sprintf("say #%d refers to #%d, which the log lacks", l.Seq, r))
		}
		upto = max(upto, e.Step)
	}
	return upto
}
