package server

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The budget of a search started from the browser ("Find a bad
// schedule"): at most one per session, a few per server, each bounded in
// wall-clock time and in schedules.
const (
	exploreTime      = 10 * time.Second       // per search
	exploreRuns      = 5000                   // schedules per search
	exploreAtOnce    = 2                      // searches running on the server at once
	exploreProgress  = 250 * time.Millisecond // between progress messages
	exploreFinishTry = 10 * time.Millisecond  // between attempts to hand the result to a busy session
)

// searching counts the searches running on this process.
var searching atomic.Int32

// search is a session's running search.
type search struct {
	cancel context.CancelFunc
}

// exploreSummary is the extra of explore-started, explore-progress and
// explore-done.
type exploreSummary struct {
	Strategy  string         `json:"strategy"`
	Budget    string         `json:"budget"`
	Schedules int            `json:"schedules"`
	Distinct  int            `json:"distinct"`
	States    int            `json:"states"`
	Best      string         `json:"best,omitempty"`     // progress: the first violation found so far
	Complete  bool           `json:"complete,omitempty"` // done: exhaustive and every schedule covered
	Cancelled bool           `json:"cancelled,omitempty"`
	Counts    map[string]int `json:"counts,omitempty"`
	Verdict   string         `json:"verdict,omitempty"` // done: the violation found ("": none)
	Verdicts  []string       `json:"verdicts,omitempty"`
	Moves     []wireAction   `json:"moves,omitempty"`    // done: the schedule entries the search chose, now the session's actions
	Scenario  string         `json:"scenario,omitempty"` // done: the id of the loaded recording
	Marks     []int          `json:"marks,omitempty"`    // done: the events the search's choices produced, to mark on the timeline
	For       string         `json:"for"`                // the scenario searched (its id), whose budget this is
	Bound     *sim.Text      `json:"bound,omitempty"`    // what the search covers: budget and sizes, reordering, time and steps
	Story     *sim.Text      `json:"story,omitempty"`    // done: the found schedule in plain words
	YAML      string         `json:"yaml,omitempty"`     // done: the loaded recording as a scenario file (what a share link of the run carries)
}

// startExplore starts a search of the loaded scenario with its scripted
// faults and recorded schedule removed, and r.Budget (or, when empty, the
// budget its own faults make). It answers at once; explore-progress
// messages follow, then explore-done, and when a violation was found the
// shrunk schedule is loaded as the session's run.
func (s *session) startExplore(r *Request) (*Message, error) {
	if s.srv.opts.Servers != nil {
		return nil, coded("explore-real", nil, "explore: a search runs on embedded Redis only, not on real servers")
	}
	if s.search != nil {
		return nil, coded("explore-running", nil, "explore: a search is already running (send explore-cancel to stop it)")
	}
	sc := s.ls.Scenario()
	budget, strategy, err := exploreInput(r, sc)
	if err != nil {
		return nil, err
	}
	addr := s.conn.addr
	if err := s.srv.takeSearch(addr); err != nil {
		return nil, err
	}
	if searching.Add(1) > exploreAtOnce {
		searching.Add(-1)
		s.srv.dropSearch(addr)
		return nil, coded("explore-busy", map[string]any{"max": exploreAtOnce}, "explore: %d searches are running on this server; try again shortly", exploreAtOnce)
	}
	e := &scenario.Explore{Faults: budget}
	if sc.Explore != nil {
		e.Steps, e.Horizon, e.Window = sc.Explore.Steps, sc.Explore.Horizon, sc.Explore.Window
	}
	neutral := explore.Neutral(sc, e)
	bound, err := explore.Bound(neutral, explore.Options{Strategy: strategy})
	if err != nil {
		searching.Add(-1)
		s.srv.dropSearch(addr)
		return nil, err
	}
	states, err := s.reserveSearch(neutral)
	if err != nil {
		searching.Add(-1)
		s.srv.dropSearch(addr)
		return nil, err
	}
	ctx, cancel := s.workContext(exploreTime) // it ends with the session too
	s.search = &search{cancel: cancel}
	summary := exploreSummary{Strategy: strategy, Budget: explore.BudgetText(budget), For: sc.ID, Bound: &bound}
	go func() {
		defer s.srv.dropSearch(addr)
		defer searching.Add(-1)
		defer s.releaseSearch()
		defer cancel()
		last := time.Now()
		// The search runs in slices on the engine's slots, as a seek and
		// the report card's cells do: others' work waits a slice at most.
		sl := &slicer{srv: s.srv, ctx: ctx}
		_ = sl.yield() // a stop while it waits: the search sees ctx
		res, err := explore.Search(ctx, neutral, explore.Options{Strategy: strategy, Runs: exploreRuns, States: states, Yield: sl.yield,
			Progress: func(p explore.Progress) {
				if time.Since(last) < exploreProgress {
					return
				}
				last = time.Now()
				sum := summary
				sum.Schedules, sum.Distinct, sum.States, sum.Best = p.Schedules, p.Distinct, p.States, p.Best
				s.do(func() { s.sendExplore("explore-progress", sum, nil) }) // dropped when the session is busy
			}})
		sl.release()
		s.releaseSearch() // its worlds and states are gone; the run it found is counted as the session's (finishExplore)
		cancelled := errors.Is(ctx.Err(), context.Canceled)
		finish := func() { s.finishExplore(summary, res, err, cancelled) }
		for !s.do(finish) {
			select {
			case <-s.quit:
				return
			case <-time.After(exploreFinishTry):
			}
		}
	}()
	return &Message{Type: "explore-started", Explore: &summary}, nil
}

// exploreInput reads an explore request's budget of faults (the lesson's
// own unless it gives one) and strategy (random unless it gives one),
// refusing what the search does not know.
func exploreInput(r *Request, sc *scenario.Scenario) (budget []scenario.Budget, strategy string, err error) {
	budget, _ = explore.LessonBudget(sc)
	if r.Budget != "" {
		if budget, err = explore.ParseBudget(r.Budget); err != nil {
			var be *explore.BudgetError
			if errors.As(err, &be) {
				return nil, "", badArg("explore", "budget", be.Words)
			}
			return nil, "", badArg("explore", "budget", fact.Error(err).Render())
		}
	}
	strategy = r.Strategy
	if strategy == "" {
		strategy = explore.Random
	}
	if !slices.Contains(explore.Strategies, strategy) {
		return nil, "", badArg("explore", "strategy", fact.Say("server.unknown-strategy-want", strategy, strings.Join(explore.Strategies, ", ")))
	}
	return budget, strategy, nil
}

// cancelExplore stops the session's search, if any; its explore-done
// follows.
func (s *session) cancelExplore() {
	if s.search != nil {
		s.search.cancel()
	}
}

// finishExplore runs on the session's goroutine when a search ends.
func (s *session) finishExplore(sum exploreSummary, res *explore.Result, err error, cancelled bool) {
	s.search = nil
	if err != nil {
		s.sendExplore("explore-done", sum, err)
		return
	}
	sum.Schedules, sum.Distinct, sum.States = res.Schedules, res.Distinct, res.States
	sum.Complete, sum.Cancelled, sum.Counts, sum.Verdict = res.Complete, cancelled, res.Counts, res.Verdict
	if res.Recording != nil {
		// The shrunk run is built and replayed as a load's is: on the
		// engine's slots, in slices, within the budgets, and counted.
		var ls *lesson.Session
		s.bulkTurn(func() {
			ls, err = lesson.NewSession(res.Recording, lesson.Config{Seed: res.Recording.Seed, Servers: embedded.Servers{}})
		})
		if err != nil {
			s.sendExplore("explore-done", sum, err)
			return
		}
		if err := seekIn(s, ls, s.srv.limits.MaxSteps); err != nil {
			ls.Close()
			s.sendExplore("explore-done", sum, err)
			return
		}
		s.replaceRun(ls, loadedRun{custom: true, file: s.file}) // the file's scenarios stay in the picker
		err = s.account()
		sum.Verdicts, sum.Moves = res.Verdicts, res.Shrunk
		sum.Scenario, sum.Marks = res.Recording.ID, explore.Marks(ls.Log(), res.Shrunk)
		story := explore.Describe(ls.Log(), res.Shrunk, res.Verdict)
		sum.Story = &story
		if y, yerr := scenario.MarshalScenario(res.Recording); yerr == nil {
			sum.YAML = string(y)
		} else {
			s.srv.opts.Logf("explore: the found run as YAML: %v", yerr) // the run is loaded; only its share link lacks it
		}
	}
	s.sendExplore("explore-done", sum, nil)
	if err != nil && s.conn != nil {
		s.conn.enqueue(errorMessage(0, err)) // over a budget: the run is loaded, the page says why it holds
	}
	if res.Recording != nil {
		s.push(0)
	}
}

// sendExplore sends a search's news; a search that failed says why as an
// error does, with its code and arguments.
func (s *session) sendExplore(typ string, sum exploreSummary, err error) {
	if s.conn == nil {
		return
	}
	m := &Message{Type: typ, Explore: &sum}
	if err != nil {
		e := errorMessage(0, err)
		m.Error, m.Code, m.Args = e.Error, e.Code, e.Args
	}
	s.conn.enqueue(m)
}
