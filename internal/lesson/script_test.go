package lesson

import (
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// A scenario without narration has its own schedule as its script: a run
// that plays it (a schedule found by a search, a report card's
// counterexample: their narration went with the author's schedule) has
// not been changed by anyone, and says nothing of the kind. The same
// actions played over a scenario that does not have them (a user's
// recording of the lesson) are the user's: the run leaves its script at
// the first. With narration, the narration is the script: a recorded
// action leaves it, so that a user's saved recording replays its log.
func TestTheScenariosOwnScheduleIsItsScript(t *testing.T) {
	lessonSc := builtin(t, "no-lock-oversell")
	pause := []scenario.Action{{Step: 1, Fault: scenario.Fault{Do: "pause", Client: "A", For: scenario.Duration(300e6)}}}
	own := *lessonSc
	own.Schedule, own.Narration, own.Challenge = pause, nil, nil
	narrated := *lessonSc
	narrated.Schedule = pause

	end := func(s *Session) *Run {
		t.Helper()
		for {
			ok, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				return s.Run()
			}
		}
	}
	saidOff := func(r *Run) bool {
		for _, e := range r.World.Log() {
			if e.Name == SayOffScript {
				return true
			}
		}
		return false
	}

	// Expected: on script, and no note, when the pause is the scenario's.
	s, err := NewSession(&own, cfg(own.Seed))
	if err != nil {
		t.Fatal(err)
	}
	if r := end(s); r.OffScript() || saidOff(r) {
		t.Errorf("the scenario's own schedule took its run off its script")
	}
	s.Close()

	// Expected: the same when the recording played is the scenario's own.
	s, err = NewSessionOver(&own, pause, cfg(own.Seed))
	if err != nil {
		t.Fatal(err)
	}
	if r := end(s); r.OffScript() || saidOff(r) {
		t.Errorf("a recording equal to the scenario's schedule took the run off its script")
	}
	s.Close()

	// Expected: off at step 1 when the lesson has no such pause: the user
	// added it.
	over := *lessonSc
	over.Narration, over.Challenge, over.Schedule = nil, nil, pause
	s, err = NewSessionOver(&over, nil, cfg(lessonSc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	r := end(s)
	if at, off := r.LeftScriptAt(); !off || at != 1 || !saidOff(r) {
		t.Errorf("a user's pause over the lesson: off %v at %d, note %v; want off at 1 with the note", off, at, saidOff(r))
	}
	s.Close()

	// Expected: off at step 1 when the scenario has narration: the pause
	// is a user's recorded over the lesson.
	s, err = NewSession(&narrated, cfg(narrated.Seed))
	if err != nil {
		t.Fatal(err)
	}
	if at, off := end(s).LeftScriptAt(); !off || at != 1 {
		t.Errorf("a recording of the narrated lesson: off %v at %d, want off at 1", off, at)
	}
	s.Close()

	// Expected: a user's own action after the scenario's schedule still
	// takes the run off its script, where it was taken.
	s, err = NewSession(&own, cfg(own.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for s.Cursor() < 3 {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Inject(scenario.Fault{Do: "pause", Client: "B", For: scenario.Duration(300e6)}); err != nil {
		t.Fatal(err)
	}
	if at, off := end(s).LeftScriptAt(); !off || at != 3 {
		t.Errorf("a user's pause after the scenario's: off %v at %d, want off at 3", off, at)
	}
}
