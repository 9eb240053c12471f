package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/explore"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// cmdExplore searches a scenario's schedules for one that breaks it and
// prints the shrunk schedule as a scenario file. The time limit is the
// only use of the wall clock, and it lives here: the search itself is
// deterministic for a given seed.
func cmdExplore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("explore", stderr)
	file := fs.String("file", "", "scenario file (default: the built-in catalog)")
	strategy := fs.String("strategy", explore.Random, "random, pct or exhaustive")
	bf := budgetFlags{
		budget:  fs.String("budget", "", "fault budget, e.g. pause:5s,clock-jump=3:10s,drop-reply (default: the scenario's explore: section)"),
		steps:   fs.Int("steps", 0, "engine steps per schedule (default: explore: steps, or 2000)"),
		horizon: fs.Duration("horizon", 0, "virtual time per schedule (default: explore: horizon, or the scenario's)"),
		window:  fs.Duration("window", -1, "moves due this close to the next one may go first (default: explore: window, or 0)"),
	}
	limit := fs.Duration("time", 10*time.Second, "wall-clock time limit of the search")
	runs := fs.Int("runs", explore.DefaultRuns, "the most schedules to run")
	seed := fs.Int64("seed", 0, "seed of the search (random and pct)")
	depth := fs.Int("depth", 3, "pct: the bug depth d (d-1 priority change points)")
	neutral := fs.Bool("neutral", false, "remove the scenario's scripted faults, schedule and narration first")
	noShrink := fs.Bool("no-shrink", false, "print the violating schedule as found")
	exact := fs.Bool("exact", false, "every fault as big as its budget's max (default: the search tries its quarters)")
	want := fs.String("want", "", "look only for these verdicts, e.g. mutual-exclusion,foreign-unlock (default: any violation)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	pos, err := interleave(fs, args)
	if err != nil {
		return err
	}
	f, err := loadFile(*file)
	if err != nil {
		return err
	}
	sc, err := exploredScenario(f, pos, *file)
	if err != nil {
		return err
	}
	e, err := bf.of(fs, sc)
	if err != nil {
		return err
	}
	if *neutral {
		sc = explore.Neutral(sc, nil)
	}
	opt := explore.Options{Strategy: *strategy, Seed: *seed, Budget: e, Runs: *runs, NoShrink: *noShrink, Depth: *depth, Exact: *exact}
	if opt.Want, err = wantedVerdicts(*want); err != nil {
		return err
	}
	start := time.Now()
	if isTerminal(stderr) && !*asJSON {
		opt.Progress = progressLine(stderr, start)
	}
	sctx, cancel := context.WithTimeout(ctx, *limit)
	defer cancel()
	res, err := explore.Search(sctx, sc, opt)
	if opt.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		if ctx.Err() != nil {
			return errInterrupted
		}
		return err
	}
	out := searched{sc: sc, res: res, opt: opt, elapsed: time.Since(start),
		interrupted: ctx.Err() != nil} // SIGINT or SIGTERM: say what was covered, then stop
	if res.Recording != nil {
		if out.yml, err = scenario.MarshalScenario(res.Recording); err != nil {
			return err
		}
	}
	if *asJSON {
		return out.json(stdout)
	}
	return out.text(stdout)
}

// exploredScenario is the scenario explore's arguments name: its one id,
// or the only scenario of --file.
func exploredScenario(f *scenario.File, pos []string, file string) (*scenario.Scenario, error) {
	switch {
	case len(pos) == 1:
		return findScenario(f, pos[0], file)
	case len(pos) == 0 && file != "" && len(f.Scenarios) == 1:
		return &f.Scenarios[0], nil
	}
	return nil, badUsage("explore takes one scenario id (or --file with one scenario)")
}

// budgetFlags are explore's flags that override the scenario's explore:
// section.
type budgetFlags struct {
	budget          *string
	steps           *int
	horizon, window *time.Duration
}

// of is sc's explore: section with the flags given put over it.
func (b budgetFlags) of(fs *flag.FlagSet, sc *scenario.Scenario) (*scenario.Explore, error) {
	e := &scenario.Explore{}
	if sc.Explore != nil {
		*e = *sc.Explore
	}
	if isSet(fs, "budget") {
		var err error
		if e.Faults, err = explore.ParseBudget(*b.budget); err != nil {
			return nil, err
		}
	}
	if *b.steps > scenario.MaxSteps {
		return nil, badUsage("--steps %d is over the limit of %d engine steps a schedule", *b.steps, scenario.MaxSteps)
	}
	if *b.steps > 0 {
		e.Steps = *b.steps
	}
	if *b.horizon > 0 {
		e.Horizon = scenario.Duration(*b.horizon)
	}
	if *b.window >= 0 {
		e.Window = scenario.Duration(*b.window)
	}
	return e, nil
}

// wantedVerdicts reads --want: violations, comma-separated.
func wantedVerdicts(want string) ([]string, error) {
	var out []string
	for _, v := range strings.Split(want, ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		if !slices.Contains(sim.Verdicts, v) || v == sim.VerdictSafe {
			bad := slices.DeleteFunc(slices.Clone(sim.Verdicts), func(s string) bool { return s == sim.VerdictSafe })
			return nil, fmt.Errorf("--want: unknown violation %q (one of %s)", v, strings.Join(bad, ", "))
		}
		out = append(out, v)
	}
	return out, nil
}

// progressLine draws the search's progress on one terminal line, at most
// ten times a second.
func progressLine(stderr io.Writer, start time.Time) func(explore.Progress) {
	last := time.Time{}
	return func(p explore.Progress) {
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond {
			last = now
			best := p.Best
			if best == "" {
				best = "none yet"
			}
			fmt.Fprintf(stderr, "\r%d schedules, %d distinct, %d states, %.1fs, best so far: %s   ",
				p.Schedules, p.Distinct, p.States, now.Sub(start).Seconds(), best)
		}
	}
}

// searched is a search's outcome as explore prints it.
type searched struct {
	sc          *scenario.Scenario
	res         *explore.Result
	opt         explore.Options
	elapsed     time.Duration
	interrupted bool
	yml         []byte // the recording, if one was found
}

// json prints the outcome as one JSON object.
func (o searched) json(stdout io.Writer) error {
	res := o.res
	return json.NewEncoder(stdout).Encode(map[string]any{
		"scenario": o.sc.ID, "strategy": res.Strategy, "seed": o.opt.Seed, "budget": explore.BudgetText(o.opt.Budget.Faults),
		"schedules": res.Schedules, "distinct": res.Distinct, "states": res.States, "pruned": res.Pruned,
		"cut": res.Cut, "complete": res.Complete, "counts": res.Counts, "verdict": res.Verdict,
		"found_at": res.FoundAt, "shrink_replays": res.Shrinks, "verdicts": res.Verdicts,
		"elapsed_ms": o.elapsed.Milliseconds(), "yaml": string(o.yml), "shrink_cut": res.ShrinkCut, "interrupted": o.interrupted,
	})
}

// text prints the outcome in words: what was found and its recording, or
// what the search covered.
func (o searched) text(stdout io.Writer) error {
	res := o.res
	fmt.Fprintf(stdout, "explore %s: strategy %s, seed %d, budget %s\n", o.sc.ID, res.Strategy, o.opt.Seed, explore.BudgetText(o.opt.Budget.Faults))
	if res.Strategy == explore.Exhaustive {
		fmt.Fprintf(stdout, "verdicts over %d schedules (%d distinct event streams, %d repeats pruned): %s\n",
			res.Schedules, res.Distinct, res.Pruned, res.CountsText())
	}
	if res.Verdict == "" {
		return o.none(stdout)
	}
	fmt.Fprintf(stdout, "found %s in schedule %d of %d; shrunk in %d replays to %d schedule entries, horizon %s (%.2fs)\n",
		res.Verdict, res.FoundAt, res.Schedules, res.Shrinks, len(res.Shrunk), res.Horizon.D(), o.elapsed.Seconds())
	if res.ShrinkCut {
		fmt.Fprintf(stdout, "the time ran out while shrinking: the schedule below still gives %s, but it may shrink further with more --time\n", res.Verdict)
	}
	fmt.Fprintf(stdout, "the recording replays to: %s\n", strings.Join(res.Verdicts, ", "))
	fmt.Fprintf(stdout, "# replay: visualizer run --file FILE %s\n", res.Recording.ID)
	_, err := stdout.Write(o.yml)
	return err
}

// none says what a search that found nothing covered, so that "none" is
// read as what it is: a proof within this bound only when the search was
// exhaustive and complete, a sample otherwise.
func (o searched) none(stdout io.Writer) error {
	res, secs := o.res, o.elapsed.Seconds()
	bound := ""
	if b, err := explore.Bound(o.sc, o.opt); err == nil {
		bound = b.En
	}
	switch {
	case res.Complete:
		fmt.Fprintf(stdout, "none within the bound: no violation in any of %d schedules (%d distinct event streams), %.2fs\nbound: %s\n",
			res.Schedules, res.Distinct, secs, bound)
	case o.interrupted:
		fmt.Fprintf(stdout, "none found in %d schedules (%d distinct), %.2fs; the search was interrupted, so this is not a proof\nsearched: %s\n",
			res.Schedules, res.Distinct, secs, bound)
		return errInterrupted
	case res.Strategy == explore.Exhaustive:
		fmt.Fprintf(stdout, "none found in the first %d schedules (%d distinct), %.2fs: the exhaustive search stopped at its time or run limit before covering them all, so this is not a proof\nbound: %s\n",
			res.Schedules, res.Distinct, secs, bound)
	default:
		fmt.Fprintf(stdout, "none found in %d sampled schedules (%s search, %d distinct), %.2fs: not a proof\nsearched: %s\n",
			res.Schedules, res.Strategy, res.Distinct, secs, bound)
	}
	return nil
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
