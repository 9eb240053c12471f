package explore

import (
	"errors"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Margin is the step of slack a shrunk schedule keeps past the least that
// still gives its verdict: each fault and the horizon are Margin,
// 2×Margin, ... longer than the shortest of its kind and place that
// does (never longer than the search placed it), the smallest of those
// that keeps the verdict in the most jittered runs (widest). A schedule
// shrunk to the millisecond (a pause 7ms past a lease) breaks the lock on
// embedded Redis's virtual clock, but on a real redis-server, whose round
// trips take real time, the next holder arrives those few milliseconds
// late and the run ends safe (docs/explore.md#shrinking).
const Margin = 100 * time.Millisecond

// shrinker reduces a schedule that gives a verdict to a smaller one that
// still gives it (DSLabs, Hypothesis): fewer entries, then shorter faults,
// then an earlier horizon, each size and the horizon then given the
// widest margin; a fault placed at a step is recorded on an event
// (anchor.go). Every candidate is replayed from the start;
// one that cannot be replayed (a manual step of a client with nothing to
// do) does not count. Once p says the search must stop, no candidate
// holds: the shrinking ends at once with the smallest schedule found so
// far, and cut is set.
type shrinker struct {
	p       *pacer
	cut     bool
	sc      *scenario.Scenario
	seed    int64
	verdict string
	replays int
	// least, by fault kind, is the smallest size a fault of that kind
	// may shrink to (Options.KeepSizes); none: down to the grain.
	least map[string]time.Duration
}

// holds replays actions with horizon h and reports whether the verdict
// is still among the run's.
func (s *shrinker) holds(actions []scenario.Action, h time.Duration) (bool, error) {
	if s.cut || !s.p.check() {
		s.cut = true
		return false, nil
	}
	s.replays++
	sc := *s.sc
	sc.Horizon = scenario.Duration(h)
	vs, ok, err := replayQuiet(s.p, &sc, s.seed, actions, s.verdict)
	if errors.Is(err, errStopped) {
		s.cut = true
		return false, nil
	}
	if err != nil || !ok {
		return false, err
	}
	return containsStr(vs, s.verdict), nil
}

// shrink returns the shrunk schedule and its horizon: fewer entries,
// then shorter faults, then an earlier horizon, each step keeping the
// verdict.
func (s *shrinker) shrink(actions []scenario.Action) ([]scenario.Action, scenario.Duration, error) {
	h := s.sc.Horizon.D()
	cur, err := s.dropEntries(append([]scenario.Action(nil), actions...), h)
	if err != nil {
		return nil, 0, err
	}
	if cur, err = s.anchor(cur, h); err != nil {
		return nil, 0, err
	}
	for i := range cur {
		if err := s.shrinkSize(cur, i, h); err != nil {
			return nil, 0, err
		}
	}
	hi, err := s.shrinkHorizon(cur, h)
	if err != nil {
		return nil, 0, err
	}
	return cur, scenario.Duration(hi), nil
}

// dropEntries gives fewer entries: it drops chunks, halving their size
// (ddmin's complement step), manual steps and faults alike, until no
// single entry can go. A chunk with a manual step taken before any
// script's NOSCRIPT round goes only when the schedule without it keeps
// the verdict in as many jittered runs (robust): a hand step the engine's
// own choice happened to repeat on embedded Redis is the one that decides
// a race of round trips on a real server, where the moments of the moves
// differ (card-redlock-restart: B must win the first round). A later
// step number names another moment on a real server, which already holds
// the scripts (anchor.go): keeping such a step would misplace it there.
func (s *shrinker) dropEntries(cur []scenario.Action, h time.Duration) ([]scenario.Action, error) {
	score := -1 // cur's robust score, once a chunk with a manual step holds without it
	for n := len(cur) / 2; n >= 1; n /= 2 {
		for i := 0; i+n <= len(cur); {
			cand := append(append([]scenario.Action(nil), cur[:i]...), cur[i+n:]...)
			ok, err := s.holds(cand, h)
			if err != nil {
				return nil, err
			}
			scored := false
			if ok && hasManualStep(cur[i:i+n]) {
				if scored, err = s.beforeScripts(cur, cur[i:i+n], h); err != nil {
					return nil, err
				}
				if scored {
					if ok, score, err = s.asRobust(cur, cand, score, h); err != nil {
						return nil, err
					}
				}
			}
			if ok && !scored {
				score = -1 // cur changes unscored: measured again when needed
			}
			if ok {
				cur = cand
			} else {
				i += n
			}
		}
	}
	return cur, nil
}

// asRobust reports whether cand keeps the verdict in at least as many
// jittered runs as cur (score, when not -1), and the score then kept.
func (s *shrinker) asRobust(cur, cand []scenario.Action, score int, h time.Duration) (bool, int, error) {
	var err error
	if score < 0 {
		if score, err = s.robust(cur, h); err != nil {
			return false, score, err
		}
	}
	n, err := s.robust(cand, h)
	if err != nil || s.cut || n < score {
		return false, score, err
	}
	return true, n, nil
}

// beforeScripts reports whether every manual step of chunk comes before
// the first event of a script's NOSCRIPT round in the run of cur: a step
// number that names the same moment on a server that already holds the
// scripts.
func (s *shrinker) beforeScripts(cur, chunk []scenario.Action, h time.Duration) (bool, error) {
	log, err := s.log(cur, h)
	if err != nil || log == nil {
		return false, err
	}
	first := -1
	sent := map[int]*sim.Event{}
	for _, x := range log {
		if x.Kind == sim.KindSend {
			sent[x.Seq] = x
		}
		if noscriptRound(x, sent) {
			first = x.Step
			break
		}
	}
	for _, a := range chunk {
		if a.Do == scenario.StepAction && first >= 0 && a.Step >= first {
			return false, nil
		}
	}
	return true, nil
}

// hasManualStep tells whether actions hold a manual step of a client.
func hasManualStep(actions []scenario.Action) bool {
	for _, a := range actions {
		if a.Do == scenario.StepAction {
			return true
		}
	}
	return false
}

// shrinkSize gives entry i's fault, in place, the smallest size, to the
// 10ms or to a 32nd of the size found (whichever is coarser), that keeps
// the verdict (binary search: a longer fault of the same kind at the same
// step rarely does less harm), and no smaller than its kind's least; then
// the widest margin past it, up to the size found (widest).
func (s *shrinker) shrinkSize(cur []scenario.Action, i int, h time.Duration) error {
	f := &cur[i].Fault
	size := f.Size()
	if *size <= 0 {
		return nil
	}
	grain := max(10*time.Millisecond, size.D()/32)
	grain -= grain % (10 * time.Millisecond)
	try := func(d time.Duration) (bool, error) {
		*size = scenario.Duration(d)
		return s.holds(cur, h)
	}
	found, least := size.D(), s.least[f.Do]
	if least >= found {
		return nil // no smaller size is allowed
	}
	lo := time.Duration(0)
	if least > 0 {
		// The least size itself first, then between it and the found.
		ok, err := try(least)
		if err != nil || ok {
			return err
		}
		lo = least
	}
	hi, err := smallest(lo, found, grain, try)
	if err != nil {
		return err
	}
	*size = scenario.Duration(hi)
	best, err := s.widest(hi, found, try, func() (int, error) { return s.robust(cur, h) })
	*size = scenario.Duration(best)
	return err
}

// widest is, of least+Margin, least+2×Margin, ... up to most (at most
// wideSteps of them, the last cut to most; least itself when none
// holds), the one that holds
// and keeps the verdict in the most jittered runs (score, after set),
// the smallest of those: among equally small schedules the one with the
// widest margin against real latency.
func (s *shrinker) widest(least, most time.Duration, set func(time.Duration) (bool, error), score func() (int, error)) (time.Duration, error) {
	best, bestScore := least, -1
	for k := 1; k <= wideSteps; k++ {
		d := min(least+time.Duration(k)*Margin, most)
		if d <= least || k > 1 && d == min(least+time.Duration(k-1)*Margin, most) {
			break // most reached
		}
		ok, err := set(d)
		if err != nil || s.cut {
			break
		}
		if !ok {
			continue
		}
		n, err := score()
		if err != nil || s.cut {
			break
		}
		if n > bestScore {
			best, bestScore = d, n
		}
		if n == JitterRuns {
			break
		}
	}
	_, err := set(best)
	return best, err
}

// wideSteps is how many steps of Margin past the least size or horizon
// the shrinking tries for the widest margin.
const wideSteps = 6

// shrinkHorizon is an earlier horizon, to the 100ms: the shortest run
// that still ends with the verdict, and no earlier than any client's
// start or timed fault (a scenario file may not name a time past its
// horizon), then Margin later when the verdict holds there too.
func (s *shrinker) shrinkHorizon(cur []scenario.Action, h time.Duration) (time.Duration, error) {
	lo := time.Duration(0)
	for _, c := range s.sc.Clients {
		lo = max(lo, c.Start.D()-1)
	}
	for _, f := range s.sc.Faults {
		if f.At != nil {
			lo = max(lo, f.At.D()-1)
		}
	}
	least, err := smallest(lo, h, 100*time.Millisecond, func(d time.Duration) (bool, error) { return s.holds(cur, d) })
	if err != nil {
		return 0, err
	}
	hz := least
	return s.widest(least, h, func(d time.Duration) (bool, error) {
		hz = d
		return s.holds(cur, d)
	}, func() (int, error) { return s.robust(cur, hz) })
}

// smallest bisects (lo, hi], where hi holds, for the smallest duration on
// a grid of grain that still holds, to within grain.
func smallest(lo, hi, grain time.Duration, holds func(time.Duration) (bool, error)) (time.Duration, error) {
	for hi-lo > grain {
		mid := (lo + hi) / 2
		mid -= mid % grain
		if mid <= lo {
			break
		}
		ok, err := holds(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}
