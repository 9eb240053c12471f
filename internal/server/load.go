package server

import (
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// load replaces the session's world with a scenario from the catalog or
// from YAML text, a seed and recorded actions, at a cursor.
func (s *session) load(r *Request) error {
	var sc *scenario.Scenario
	var file []catalogEntry
	custom := r.YAML != ""
	if custom {
		var err error
		if sc, file, err = s.parseLoaded(r); err != nil {
			return err
		}
	} else {
		if r.Scenario == "" {
			return coded("load-what", nil, "load: give a scenario id or yaml")
		}
		if ll, ok := s.srv.lives[r.Scenario]; ok {
			return s.loadLive(r, ll) // its service runs it, in real time
		}
		found, ok := s.srv.find(r.Scenario)
		if !ok {
			return coded("no-builtin", map[string]any{"id": r.Scenario}, "no built-in scenario %q", r.Scenario)
		}
		cp := *found
		sc = &cp
	}
	sc, err := challengeScenario(r, sc)
	if err != nil {
		return err
	}
	if err := s.srv.checkCaps(sc); err != nil {
		return err
	}
	script := sc.Schedule // the scenario's own, before a user's recording
	if r.Actions != nil {
		if err := scenario.CheckSchedule(sc, r.Actions); err != nil {
			return err
		}
		sc.Schedule = append([]scenario.Action(nil), r.Actions...)
	}
	seed := sc.Seed
	if r.Seed != nil {
		seed = *r.Seed
	}
	if err := s.srv.checkBudget(sc); err != nil {
		return err
	}
	kept := s.reserve
	if err := s.admit(sc); err != nil {
		return err
	}
	loaded := false
	defer func() {
		if !loaded { // the session keeps its run, and what it counted
			s.reserve = kept
			_ = s.account()
		}
	}()
	var ls *lesson.Session
	if !s.hold.bulkTurnUnless(s.quit, func() {
		// A user's recording: where it differs from the scenario's own
		// schedule, the user changed the run.
		ls, err = lesson.NewSessionOver(sc, script, lesson.Config{Seed: seed, Servers: s.servers(), Yield: s.srv.budgetYield})
	}) {
		return errEnded()
	}
	if err != nil {
		return err
	}
	if r.Step != nil {
		if err := seekIn(s, ls, *r.Step); err != nil {
			ls.Close()
			return err
		}
	}
	builtin := ""
	if !custom && r.Actions == nil && !r.Challenge {
		builtin = sc.ID
	}
	s.replaceRun(ls, loadedRun{custom: custom, file: file, challenge: r.Challenge, builtin: builtin})
	loaded = true
	return s.account()
}

// parseLoaded parses a load's own file (r.YAML) on a bulk turn: the
// scenario it names (r.Scenario, or its first) and the file's scenarios
// as the page lists them.
func (s *session) parseLoaded(r *Request) (sc *scenario.Scenario, file []catalogEntry, err error) {
	f, err := s.parseFile(r.YAML)
	if err != nil {
		return nil, nil, err
	}
	sc = &f.Scenarios[0]
	if r.Scenario != "" {
		var ok bool
		if sc, ok = f.Find(r.Scenario); !ok {
			return nil, nil, coded("no-file-scenario", map[string]any{"id": r.Scenario}, "the file has no scenario %q", r.Scenario)
		}
	}
	for i := range f.Scenarios {
		file = append(file, s.srv.entry(&f.Scenarios[i], false))
	}
	return sc, file, nil
}

// loadedRun is what the session knows of a run besides the run itself:
// all of it describes that run, and is replaced with it.
type loadedRun struct {
	custom    bool           // the scenario is not the catalog's as it stands
	file      []catalogEntry // the scenarios of the loaded file, if any
	challenge bool           // the run is played as its challenge
	builtin   string         // the catalog id whose shared chapters are the run's ("" if none)
}

// replaceRun makes ls the session's run, closing the one it had, and
// what the session knows of its run (the chapters, the file, whether it
// is a built-in lesson or a challenge) that of ls only: nothing of the run
// before carries over to the one opened (a report cell, a found schedule).
func (s *session) replaceRun(ls *lesson.Session, k loadedRun) {
	s.setPlaying(false)
	s.stopLive()
	if s.ls != nil {
		s.ls.Close()
	}
	s.ls, s.valid = ls, 0
	s.custom, s.file, s.challenge, s.builtin = k.custom, k.file, k.challenge, k.builtin
	s.chapters = chapterCache{}
}

// parseFile parses a file a request sends (load, setup) as long work on a
// bulk slot, not begun once the session has ended; a file with no
// scenario is an error too.
func (s *session) parseFile(yaml string) (*scenario.File, error) {
	var f *scenario.File
	var errs lineErrors
	if !s.hold.bulkTurnUnless(s.quit, func() { f, errs = s.srv.parse(yaml) }) {
		return nil, errEnded()
	}
	if errs != nil {
		return nil, errs
	}
	if len(f.Scenarios) == 0 {
		return nil, coded("empty-file", nil, "the file holds no scenario")
	}
	return f, nil
}
