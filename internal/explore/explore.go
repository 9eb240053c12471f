package explore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// The strategies.
const (
	Random     = "random"     // a seeded random walk over moves and fault placements
	PCT        = "pct"        // priority change points: random client priorities, depth-1 changes
	Exhaustive = "exhaustive" // every schedule within the bound once, up to commuting moves
)

// Strategies lists the strategy names.
var Strategies = []string{Random, PCT, Exhaustive}

// ErrStrategy is returned for an unknown strategy name.
var ErrStrategy = errors.New("explore: unknown strategy")

// Options configure a search. The zero value searches with the random
// walk, seed 0, the scenario's own explore section, up to DefaultRuns
// schedules.
type Options struct {
	Strategy string            // Random (default), PCT or Exhaustive
	Seed     int64             // the search's seed (random and PCT); the scenario's seed still drives each run
	Budget   *scenario.Explore // overrides the scenario's explore section when not nil
	Runs     int               // the most schedules to run; default DefaultRuns
	Steps    int               // with Runs, the most engine steps to take in all schedules (0: no limit)
	Depth    int               // PCT's bug depth d (d-1 priority changes); default 3
	NoShrink bool              // report the violation as found, unshrunk
	// Want, when not empty, are the verdicts sought: a schedule counts as
	// a find only if its verdicts include one of them (else any violation).
	Want []string
	// Progress, when set, is called after every schedule.
	Progress func(Progress)
	// Yield, when set, is called every few engine steps of every run the
	// search makes (its schedules, the shrinking's replays, the final
	// replay): the caller may hand the CPU to other work there, or stop
	// the search by returning an error, which Search then returns.
	Yield func() error
	// States is the most distinct states the search keeps to count them
	// (default DefaultStates); past it, Progress.States and Result.States
	// count only those kept. Each costs at most StateBytes of memory: a
	// server bounds a search's memory by it.
	States int

	// Exact makes every fault of the budget as big as its max (a pause of
	// max: 5s lasts 5s), where the search otherwise tries the quarters of
	// the max. Shrinking still finds the smallest size that breaks the lock,
	// unless KeepSizes.
	Exact bool

	// KeepSizes keeps a shrunk fault at least as big as the smallest size
	// the search offers for its kind (its max with Exact, else a quarter
	// of its max): a search that asks "a pause of 2s" answers with a pause
	// of 2s, not with the smallest pause that still breaks the lock.
	KeepSizes bool

	// First makes the exhaustive search stop at its first find too, as the
	// random walk and PCT do (without it, it runs every schedule and
	// counts their verdicts).
	First bool

	// Marks, when not empty, are the only points where a client fault of
	// the budget (pause, crash, drop-request, drop-reply) is placed: the
	// marks of these names (enter, acquired, ...), any client's, as they
	// happen. "Inside the critical section" is Marks: enter. Node faults
	// and partitions are placed everywhere as usual.
	Marks []string

	// Points are further points where a client fault of the budget may
	// land, with Marks or without: every event that matches one of them
	// (its kind, command, name), as it happens, the fault hitting the
	// event's client. A lock's known flaw point is one
	// (lock.Info.FlawAfter): {kind: exec, cmd: SETNX} is right after a node
	// ran a client's SETNX, before the client has the reply. A fault placed
	// there is recorded on that event, by its client and count.
	Points []scenario.Match

	noSleep bool // exhaustive without sleep sets (tests of the reduction)
}

// DefaultRuns is the default cap on schedules per search.
const DefaultRuns = 100000

// DefaultStates is the default cap on the distinct states a search keeps
// (Options.States): about 2 million, at most DefaultStates*StateBytes
// (112 MiB) of memory.
const DefaultStates = 1 << 21

// StateBytes is the most memory one state a search keeps costs: its
// fingerprint in the state set's map, with the map's empty slots and
// growth. Measured 39 to 45 bytes a state on the heap after a GC, from
// 30,000 states to DefaultStates (TestStateSetCost); the rest is margin.
const StateBytes = 56

// Progress is a search's state, reported after every schedule.
type Progress struct {
	Schedules int    // schedules run (abandoned repeats not counted)
	Distinct  int    // distinct event streams among them
	States    int    // distinct states seen (event-stream prefixes)
	Best      string // the first violation found so far, or ""
}

// Result is what a search found.
type Result struct {
	Strategy  string
	Schedules int            // schedules run
	Steps     int            // engine steps taken in them
	Distinct  int            // distinct event streams among them
	States    int            // distinct states seen
	Pruned    int            // exhaustive: schedules abandoned as repeats (sleep sets)
	Cut       int            // schedules ended by the step bound
	Complete  bool           // exhaustive: every schedule within the bound was run
	Counts    map[string]int // exhaustive: schedules per verdict list ("safe", "mutual-exclusion,lost-update")
	Verdict   string         // the violation found ("" if none)
	Found     []scenario.Action
	FoundAt   int               // which schedule found it (1-based)
	Shrunk    []scenario.Action // the found schedule shrunk (Found when NoShrink)
	Horizon   scenario.Duration // the shrunk schedule's horizon
	Shrinks   int               // replays the shrinking took
	// ShrinkCut: the search's time ran out while shrinking; Shrunk still
	// gives the verdict, but it may shrink further with more time.
	ShrinkCut bool
	// Recording is the shrunk schedule as a scenario of its own, its
	// expect set to what it replays to (Verdicts).
	Recording *scenario.Scenario
	Verdicts  []string
}

// Search looks for a schedule of sc that breaks it, within the bounds and
// fault budget of opt.Budget (or sc.Explore). It stops at the first
// violation (random, PCT) or when every schedule is covered (exhaustive,
// which counts the verdicts of all of them), at opt.Runs schedules, or
// when ctx is done. The scenario's own faults are kept and its recorded
// schedule is not (the search makes those choices itself): give it a
// neutral scenario (Neutral) to search from scratch.
//
// ctx bounds the whole search, shrinking and the final replay included:
// when it is done the search stops within a few engine steps. Done while
// searching, the result is what was covered; while shrinking, the smallest
// schedule found so far (ShrinkCut); while replaying the found schedule,
// an error.
func Search(ctx context.Context, sc *scenario.Scenario, opt Options) (*Result, error) {
	s, err := newSearch(ctx, sc, opt)
	if err != nil {
		return nil, err
	}
	if s.opt.Strategy == Exhaustive {
		err = s.exhaustive()
	} else {
		err = s.sample()
	}
	if err != nil {
		return nil, err
	}
	if err := s.p.err; err != nil && !isDone(err) {
		return nil, err // Yield stopped the search
	}
	if s.res.Verdict == "" {
		return s.res, nil
	}
	if err := s.shrink(ctx); err != nil {
		return nil, err
	}
	return s.record()
}

// searching is one Search under way: the scenario as given and as searched,
// the bounds, the pacer, and the result so far.
type searching struct {
	opt       Options
	sc, bsc   *scenario.Scenario // the scenario given, and as searched (searchScenario)
	b         bounds
	p         *pacer
	res       *Result
	states    *stateSet
	traces    map[uint64]bool
	foundTook time.Duration // how long the run that found the violation took
}

// newSearch checks opt, fills in its defaults and resolves the budget.
func newSearch(ctx context.Context, sc *scenario.Scenario, opt Options) (*searching, error) {
	if opt.Strategy == "" {
		opt.Strategy = Random
	}
	if !containsStr(Strategies, opt.Strategy) {
		return nil, fmt.Errorf("%w %q (want %s)", ErrStrategy, opt.Strategy, strings.Join(Strategies, ", "))
	}
	if opt.Runs <= 0 {
		opt.Runs = DefaultRuns
	}
	if opt.Depth <= 0 {
		opt.Depth = 3
	}
	if opt.States <= 0 {
		opt.States = DefaultStates
	}
	e := opt.Budget
	if e == nil {
		e = sc.Explore
	}
	b, err := resolve(sc, e)
	if err != nil {
		return nil, err
	}
	b.exact, b.anyClient, b.marks, b.points = opt.Exact, opt.Strategy != Exhaustive, opt.Marks, opt.Points
	return &searching{opt: opt, sc: sc, bsc: searchScenario(sc, b), b: b, p: newPacer(ctx, opt.Yield),
		res: &Result{Strategy: opt.Strategy, Counts: map[string]int{}}, states: newStateSet(opt.States), traces: map[uint64]bool{}}, nil
}

// note counts a schedule run; it reports whether the search is over (a
// violation sought, found first or by a strategy that stops at one).
func (s *searching) note(o *outcome) bool {
	res := s.res
	res.Schedules++
	res.Steps += o.steps
	s.traces[o.trace] = true
	res.Distinct, res.States = len(s.traces), s.states.len()
	if o.cut {
		res.Cut++
	}
	res.Counts[strings.Join(o.verdicts, ",")]++
	if v := o.sought(s.opt.Want); v != "" && res.Verdict == "" {
		res.Verdict, res.Found, res.FoundAt, s.foundTook = v, o.actions, res.Schedules, o.took
	}
	if s.opt.Progress != nil {
		s.opt.Progress(Progress{Schedules: res.Schedules, Distinct: res.Distinct, States: res.States, Best: res.Verdict})
	}
	return res.Verdict != "" && (s.opt.Strategy != Exhaustive || s.opt.First)
}

// more says whether the search may run another schedule.
func (s *searching) more() bool {
	return s.res.Schedules < s.opt.Runs && (s.opt.Steps == 0 || s.res.Steps < s.opt.Steps) && s.p.check()
}

// stopped tells a schedule cut short because the search must stop
// (nothing to count) from an error.
func stopped(err error) bool { return errors.Is(err, errStopped) }

// exhaustive runs every schedule within the bounds, depth first, but for
// repeats the sleep sets prune.
func (s *searching) exhaustive() error {
	d := &dfsDecider{noSleep: s.opt.noSleep}
	for s.more() {
		o, err := execute(s.p, s.bsc, s.sc.Seed, s.b, d, s.states, nil)
		if stopped(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if o.dropped {
			s.res.Pruned++
			d.truncate()
		} else if s.note(o) {
			return nil
		}
		if !d.backtrack() {
			s.res.Complete = true
			return nil
		}
	}
	return nil
}

// sample runs the neutral schedule, then random (or PCT) ones, each from
// its own seed, until one breaks the scenario or the search must stop.
func (s *searching) sample() error {
	neutral, err := execute(s.p, s.bsc, s.sc.Seed, s.b, firstDecider{}, s.states, nil)
	if err != nil || s.note(neutral) {
		if stopped(err) {
			return nil
		}
		return err
	}
	clients := make([]string, len(s.sc.Clients))
	for i, c := range s.sc.Clients {
		clients[i] = c.Name
	}
	sought := func(vs []string) bool { return (&outcome{verdicts: vs}).sought(s.opt.Want) != "" }
	for i := uint64(1); s.more(); i++ {
		rng := rand.New(rand.NewPCG(uint64(s.opt.Seed), i))
		d := newRandomDecider(rng, s.b, neutral, clients, s.opt.Strategy == PCT, s.opt.Depth)
		o, err := execute(s.p, s.bsc, s.sc.Seed, s.b, d, s.states, sought)
		if stopped(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if s.note(o) {
			return nil
		}
	}
	return nil
}

// shrink shrinks the schedule found, unless opt.NoShrink. It leaves time
// before ctx's deadline for the final replay: twice what the run that
// found the violation took (a replay with its log takes less than a
// search's run), at most half the time left.
func (s *searching) shrink(ctx context.Context) error {
	res := s.res
	res.Shrunk, res.Horizon = res.Found, scenario.Duration(s.b.horizon)
	if s.opt.NoShrink {
		return nil
	}
	sp := s.p
	if end, ok := ctx.Deadline(); ok {
		sp = s.p.until(end.Add(-min(2*s.foundTook, time.Until(end)/2)))
	}
	sh := shrinker{p: sp, sc: s.bsc, seed: s.sc.Seed, verdict: res.Verdict}
	if s.opt.KeepSizes {
		sh.least = map[string]time.Duration{}
		for _, bu := range s.b.budget {
			if bu.Max > 0 {
				sh.least[bu.Do] = max(sh.least[bu.Do], levels(bu.Max.D(), s.opt.Exact)[0])
			}
		}
	}
	var err error
	if res.Shrunk, res.Horizon, err = sh.shrink(res.Found); err != nil {
		return err
	}
	res.Shrinks, res.ShrinkCut = sh.replays, sh.cut
	if err := sp.err; err != nil && !isDone(err) {
		return err
	}
	return nil
}

// record replays the shrunk schedule as a scenario of its own and keeps
// it as the result's Recording, its expect set to what it replays to, and
// with a fault a real server cannot apply, its real_redis declaration.
func (s *searching) record() (*Result, error) {
	res := s.res
	rec := Recording(s.sc, res.Shrunk, res.Horizon)
	sess, err := replay(s.p, rec)
	if stopped(err) && isDone(s.p.err) {
		return nil, fmt.Errorf("explore: found %s in schedule %d, but the time ran out while replaying it to record it: give the search more time", res.Verdict, res.FoundAt)
	}
	if stopped(err) {
		return nil, s.p.err
	}
	if err != nil {
		return nil, err
	}
	res.Verdicts = append([]string(nil), sess.Run().Verdicts()...)
	sess.Close()
	if !containsStr(res.Verdicts, res.Verdict) {
		return nil, fmt.Errorf("explore: the recording replays to %s, not %s (the search and the session disagree)",
			strings.Join(res.Verdicts, ", "), res.Verdict)
	}
	rec.Expect = res.Verdicts
	if rec.RealRedis, err = onRealRedis(s.p, rec); err != nil {
		if stopped(err) {
			return nil, fmt.Errorf("explore: found %s in schedule %d, but the time ran out while replaying it as a real server would run it: give the search more time", res.Verdict, res.FoundAt)
		}
		return nil, err
	}
	res.Recording = rec
	return res, nil
}

// isDone tells a context's end from other reasons to stop.
func isDone(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
