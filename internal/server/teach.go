package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/lockstep/lockstep/internal/embedded"
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
	code      codeCache    // the code view's files of the loaded scenario
	builtin   string       // the loaded scenario's id when it is a built-in one as the catalog has it (no recorded actions, no challenge)
}

// chapterCache holds the chapters of one scenario and seed, encoded.
type chapterCache struct {
	sc   *scenario.Scenario
	seed int64
	json json.RawMessage
}

// codeCache holds the code view's files of one scenario.
type codeCache struct {
	sc    *scenario.Scenario
	files map[string]string
	libs  map[string]libView
	own   map[string]string
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
	if s.code.sc != sc {
		s.code.sc, s.code.files, s.code.libs, s.code.own = sc, codeFiles(sc), codeLibs(sc), ownCode(sc)
	}
	snap.Code, snap.Libs, snap.Own = s.code.files, s.code.libs, s.code.own
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
// once per scenario and seed from a run of its own: for a built-in lesson
// once for the whole server (chapterBook). They go with every snapshot,
// encoded once.
func (s *session) lessonChapters() json.RawMessage {
	sc, seed := s.ls.Scenario(), s.ls.Seed()
	c := &s.chapters
	if c.sc != sc || c.seed != seed {
		var list []lesson.Chapter
		if s.builtin != "" {
			list = s.srv.chapters.get(chapterKey{s.builtin, seed}, func() ([]lesson.Chapter, error) { return s.findChapters(sc, seed) })
		} else {
			list, _ = s.findChapters(sc, seed)
		}
		*c = chapterCache{sc: sc, seed: seed}
		if len(list) > 0 {
			c.json, _ = json.Marshal(list)
		}
	}
	return c.json
}

// findChapters runs sc to find its chapters, in the engine's slices and
// within the budgets, as a seek does.
func (s *session) findChapters(sc *scenario.Scenario, seed int64) ([]lesson.Chapter, error) {
	var f *lesson.ChapterFinder
	var err error
	s.bulkTurn(func() { f, err = lesson.FindChapters(sc, lesson.Config{Seed: seed, Servers: embedded.Servers{}}) })
	if err != nil || f == nil {
		return nil, err
	}
	defer f.Close()
	err = s.stepsOf(f.Session(), true, func() (bool, error) {
		if f.Session().Cursor() >= s.srv.limits.MaxSteps {
			return false, nil
		}
		return f.Step()
	})
	return f.Chapters(), err
}

// chapterBook is the server's cache of the built-in lessons' chapters, by
// scenario id and seed: the sessions that load a lesson share one run of
// it (a classroom opening the same lesson at once makes one, not one per
// student). It holds at most chapterBookSize entries, the oldest leaving
// first; a run that failed is not kept.
type chapterBook struct {
	mu    sync.Mutex
	m     map[chapterKey]*chapterEntry
	order []chapterKey
}

const chapterBookSize = 256

type chapterKey struct {
	id   string
	seed int64
}

type chapterEntry struct {
	once sync.Once
	list []lesson.Chapter
	err  error
}

// get gives the chapters for k, finding them with find the first time;
// sessions asking meanwhile wait for that one run.
func (b *chapterBook) get(k chapterKey, find func() ([]lesson.Chapter, error)) []lesson.Chapter {
	b.mu.Lock()
	if b.m == nil {
		b.m = map[chapterKey]*chapterEntry{}
	}
	e, ok := b.m[k]
	if !ok {
		if len(b.order) >= chapterBookSize {
			delete(b.m, b.order[0])
			b.order = b.order[1:]
		}
		e = &chapterEntry{}
		b.m[k] = e
		b.order = append(b.order, k)
	}
	b.mu.Unlock()
	e.once.Do(func() {
		defer func() {
			if v := recover(); v != nil { // not kept; the panic ends the asking session
				e.err = fmt.Errorf("chapters: panic: %v", v)
				b.forget(k, e)
				panic(v)
			}
		}()
		e.list, e.err = find()
	})
	if e.err != nil {
		b.forget(k, e)
	}
	return e.list
}

// forget removes k's entry if it is still e.
func (b *chapterBook) forget(k chapterKey, e *chapterEntry) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m[k] == e {
		delete(b.m, k)
		b.order = slices.DeleteFunc(b.order, func(x chapterKey) bool { return x == k })
	}
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
	err := s.steps(n, func() (bool, error) {
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
