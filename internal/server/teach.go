package server

import (
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// The teaching tools' part of a session: the code view's files, the
// lesson's chapters with paced play, and challenges.

// teachRequest are the arguments of the requests that reach them.
type teachRequest struct {
	Challenge bool  `json:"challenge,omitempty"` // load: run the scenario's challenge
	Beats     *bool `json:"beats,omitempty"`     // play: stop at each beat of the lesson's story
}

// teachState is what a session keeps for them.
type teachState struct {
	challenge bool         // the run is its scenario's challenge (load with challenge: true)
	beats     bool         // play stops at each beat of the story
	chapters  chapterCache // the chapters of the loaded lesson and seed
}

// chapterCache holds the chapters of one scenario and seed.
type chapterCache struct {
	sc   *scenario.Scenario
	seed int64
	list []lesson.Chapter
}

// challengeView is a challenge as the browser shows it: what it asks and,
// once taken (Active), how far the run is with it.
type challengeView struct {
	*scenario.Challenge
	Active   bool             `json:"active"`
	Progress *lesson.Progress `json:"progress,omitempty"`
}

// teach fills the snapshot's teaching fields.
func (s *session) teach(snap *Snapshot) {
	sc := s.ls.Scenario()
	snap.Code = codeFiles(sc)
	if sc.Challenge != nil {
		v := &challengeView{Challenge: sc.Challenge, Active: s.challenge}
		if s.challenge {
			v.Progress = s.ls.Challenge()
		}
		snap.Challenge = v
	}
	if !s.challenge {
		snap.Chapters = s.lessonChapters()
	}
}

// lessonChapters lists the loaded lesson's chapters for its seed, computed
// once per scenario and seed from a run of its own.
func (s *session) lessonChapters() []lesson.Chapter {
	sc, seed := s.ls.Scenario(), s.ls.Seed()
	c := &s.chapters
	if c.sc != sc || c.seed != seed {
		var list []lesson.Chapter
		s.srv.turn(func() { list, _ = lesson.Chapters(sc, seed, s.srv.limits.MaxSteps) })
		*c = chapterCache{sc: sc, seed: seed, list: list}
	}
	return c.list
}

// challengeScenario is the scenario a load runs: with challenge: true, the
// scenario's challenge run.
func challengeScenario(r *Request, sc *scenario.Scenario) (*scenario.Scenario, error) {
	if !r.Challenge {
		return sc, nil
	}
	if sc.Challenge == nil {
		return nil, coded("no-challenge", map[string]any{"id": sc.ID}, "scenario %q has no challenge", sc.ID)
	}
	return scenario.ChallengeRun(sc), nil
}

// stepBeats takes up to n steps as stepN does, but stops after the first
// step that says a beat of the lesson's story. It reports whether it
// stopped there.
func (s *session) stepBeats(n int) (bool, error) {
	seen, beat := len(s.ls.Log()), false
	err := s.steps(func() (bool, error) {
		if n == 0 || beat {
			return false, nil
		}
		n--
		if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
			return false, err
		}
		ok, err := s.ls.Step()
		log := s.ls.Log()
		for _, e := range log[min(seen, len(log)):] {
			beat = beat || lesson.IsBeat(e)
		}
		seen = len(log)
		return ok, err
	})
	return beat, err
}
