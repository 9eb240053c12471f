package report

import (
	"context"
	"errors"
	"slices"

	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// search is one cell's search: the lock, the cell's scenario (checked)
// and the step budgets of its two searches.
type search struct {
	a      *lock.Info
	sc     *scenario.Scenario
	steps  int // engine steps of the exhaustive search, all schedules together
	random int // engine steps of the random walk that follows it
	// again says how to search the cell alone, for a cell the time limit
	// stopped (visualizer report --cell …).
	again string
}

// runCell searches one cell of the catalog's card.
func runCell(ctx context.Context, a *lock.Info, row *Row, col *Column, yield func() error) (*Cell, error) {
	if why := notApplicable(row.Probe, col); why != nil {
		return &Cell{Column: col.ID, Kind: NA, Why: why}, nil
	}
	sc, err := normalize(Template(a, col, row.Probe))
	if err != nil {
		return nil, cellError(a, col, err)
	}
	return searchCell(ctx, search{a: a, sc: sc, steps: ExhaustiveSteps, random: RandomSteps,
		again: "visualizer report --cell " + a.ID + "/" + col.ID}, row, col, yield)
}

// searchCell runs a cell's searches: the exhaustive search within its
// budget and, when it neither covered every schedule nor found anything,
// the random walk (seed 0) within its own.
func searchCell(ctx context.Context, s search, row *Row, col *Column, yield func() error) (*Cell, error) {
	c := &Cell{Column: col.ID}
	a, sc := s.a, s.sc
	opt := explore.Options{Strategy: explore.Exhaustive, Steps: s.steps,
		Exact: col.Exact, KeepSizes: true, Marks: col.Marks, Points: flawPoints(a, col), Want: wanted(row), First: true, Yield: yield}
	res, err := explore.Search(ctx, sc, opt)
	if err != nil {
		return nil, cellError(a, col, err)
	}
	c.Steps = res.Steps
	if res.Verdict == "" && !res.Complete && ctx.Err() == nil && s.random > 0 {
		opt.Strategy, opt.Runs, opt.Steps = explore.Random, 0, s.random
		if res, err = explore.Search(ctx, sc, opt); err != nil {
			return nil, cellError(a, col, err)
		}
		c.Steps += res.Steps
	}
	c.Strategy, c.Schedules = res.Strategy, res.Schedules
	switch {
	case res.Verdict == "" && !res.Complete && ctx.Err() != nil:
		// Stopped before the end of its budget: whatever it sampled, the
		// cell says nothing (Advice reads no unsearched cell).
		c.Kind, c.Stopped = Unsearched, true
		c.Why = stoppedWhy(s.again, c.Schedules)
	case res.Verdict != "":
		c.Kind, c.Verdict, c.Verdicts, c.FoundAt = Fails, res.Verdict, res.Verdicts, res.FoundAt
		c.Counterexample = res.Recording
		s, err := explore.Replay(res.Recording)
		if err != nil {
			return nil, cellError(a, col, err)
		}
		story := explore.Describe(s.Log(), res.Shrunk, res.Verdict)
		s.Close()
		c.Story = &story
	case res.Complete:
		c.Kind, c.Counts = Holds, res.Counts
	default:
		c.Kind = NotFound
	}
	if row.Storage && c.Kind != Fails && ctx.Err() == nil {
		if c.Example, err = refusedWrite(ctx, sc, opt, s.steps); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// stoppedWhy says why a cell is Unsearched: the card's time limit stopped
// its search after schedules schedules; again searches it alone.
func stoppedWhy(again string, schedules int) *sim.Text {
	why := fact.Say("report.stopped-why", schedules, noun(schedules, "schedule", "schedules"), again)
	return &why
}

// flawPoints are, for a column that places a client's fault only at
// chosen marks, the lock's own flaw points (lock.Info.FlawAfter), where
// the fault may land too: right after a node ran one of those commands
// for the client. Every other column places its fault after any step,
// which those points are among.
func flawPoints(a *lock.Info, col *Column) []scenario.Match {
	if len(col.Marks) == 0 {
		return nil
	}
	var out []scenario.Match
	for _, cmd := range a.FlawAfter {
		out = append(out, scenario.Match{Kind: string(sim.KindExec), Cmd: cmd})
	}
	return out
}

// wanted are the verdicts that break a lock: any violation, or for a lock
// judged at its storage, any but two clients inside at once.
func wanted(row *Row) []string {
	var out []string
	for _, v := range sim.Verdicts {
		if v == sim.VerdictSafe || row.Storage && v == sim.VerdictMutualExclusion {
			continue
		}
		out = append(out, v)
	}
	return out
}

// refusedWrite finds, for a lock judged at its storage, a schedule of the
// cell in which two clients were inside at once (within steps engine
// steps): what the storage's refusal is shown on. nil when there is none.
func refusedWrite(ctx context.Context, sc *scenario.Scenario, opt explore.Options, steps int) (*scenario.Scenario, error) {
	// Unshrunk: shrinking would look for the shortest pause that still
	// lets two in, not the column's fault.
	opt.Strategy, opt.Steps, opt.NoShrink = explore.Exhaustive, steps, true
	opt.Want = []string{sim.VerdictMutualExclusion}
	res, err := explore.Search(ctx, sc, opt)
	if err != nil || res.Recording == nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			err = nil
		}
		return nil, err
	}
	rec := res.Recording
	verdicts, refused, err := refusedIn(rec)
	if err != nil {
		return nil, err
	}
	if !refused {
		return nil, nil // two were inside, but no late write reached the storage
	}
	if rec, err = fewerMoves(rec); err != nil {
		return nil, err
	}
	rec.Expect = verdicts
	rec.ID = sc.ID + "-refused"
	rec.Title = fact.Say("report.refused-title", sc.Title)
	return rec, nil
}

// refusedIn replays rec and tells its verdicts and whether two clients
// were inside at once and the storage refused a late write.
func refusedIn(rec *scenario.Scenario) ([]string, bool, error) {
	s, err := explore.Replay(rec)
	if err != nil {
		return nil, false, err
	}
	defer s.Close()
	refused := false
	for _, e := range s.Log() {
		refused = refused || e.Kind == sim.KindMark && e.Name == MarkWriteRejected
	}
	vs := append([]string(nil), s.Run().Verdicts()...)
	return vs, refused && slices.Contains(vs, sim.VerdictMutualExclusion), nil
}

// fewerMoves drops from rec's schedule every manual step the refused
// write does not need, one at a time, each replayed: the search found the
// write unshrunk, and a step number is another moment on a real server,
// where the run takes other steps (a script its cache already holds
// answers at once), or one where the client has no move to make. The
// verdicts stay those of rec (a test holds them).
func fewerMoves(rec *scenario.Scenario) (*scenario.Scenario, error) {
	want, _, err := refusedIn(rec)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(rec.Schedule); {
		cand := *rec
		cand.Schedule = slices.Delete(slices.Clone(rec.Schedule), i, i+1)
		got, ok, err := refusedIn(&cand)
		if err == nil && ok && slices.Equal(got, want) {
			rec = &cand
			continue
		}
		i++
	}
	return rec, nil
}
