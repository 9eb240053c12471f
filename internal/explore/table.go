package explore

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// LessonBudget is the fault budget a lesson's own scripted faults make:
// for each kind a search can place, as many as the lesson scripts, each as
// long (or as far) as the longest it scripts; a node crash or partition
// scripted to last has no max (it lasts). It also lists the scripted kinds
// a search cannot place.
func LessonBudget(sc *scenario.Scenario) (budget []scenario.Budget, unsearched []string) {
	index := map[string]int{}
	for _, f := range sc.Faults {
		if !containsStr(sim.SearchKinds, f.Do) {
			if !containsStr(unsearched, f.Do) {
				unsearched = append(unsearched, f.Do)
			}
			continue
		}
		i, ok := index[f.Do]
		if !ok {
			i = len(budget)
			index[f.Do] = i
			budget = append(budget, scenario.Budget{Do: f.Do})
		}
		b := &budget[i]
		b.Count++
		size := *f.Size()
		b.Max = max(b.Max, size, -size)
	}
	return budget, unsearched
}

// The bounds of each search of the lessons table: the exhaustive search
// first, up to TableExhaustiveRuns schedules, then, if it does not
// complete, the random walk (seed 0) up to TableRandomSteps engine steps
// in all (as many schedules of a one-node lesson as of a short Redlock
// lesson cost about the same).
const (
	TableExhaustiveRuns = 30
	TableRandomSteps    = 40000
)

// LessonRow is what exploring one lesson from its neutral schedule finds.
type LessonRow struct {
	ID, Expect, Budget, Unsearched string
	Result                         *Result
}

// ExploreLesson searches one lesson from its neutral schedule with the
// budget its own faults make, every fault as big as the lesson's (Exact), for the verdicts the lesson expects (any
// violation for a safe lesson): exhaustively up to TableExhaustiveRuns
// schedules, and if that does not cover them all, by random walk up to
// TableRandomSteps engine steps.
func ExploreLesson(ctx context.Context, sc *scenario.Scenario) (*LessonRow, error) {
	budget, uns := LessonBudget(sc)
	row := &LessonRow{ID: sc.ID, Expect: strings.Join(sc.Expect, ", "), Budget: BudgetText(budget), Unsearched: strings.Join(uns, ", ")}
	n := Neutral(sc, &scenario.Explore{Faults: budget})
	var want []string
	if !containsStr(sc.Expect, sim.VerdictSafe) {
		want = sc.Expect
	}
	res, err := Search(ctx, n, Options{Strategy: Exhaustive, Runs: TableExhaustiveRuns, Want: want, Exact: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sc.ID, err)
	}
	if res.Verdict == "" && !res.Complete {
		if res, err = Search(ctx, n, Options{Strategy: Random, Steps: TableRandomSteps, Want: want, Exact: true}); err != nil {
			return nil, fmt.Errorf("%s: %w", sc.ID, err)
		}
	}
	row.Result = res
	return row, nil
}

// Markdown is the row as a line of docs/explore.md's table.
func (r *LessonRow) Markdown() string {
	res := r.Result
	var found string
	switch {
	case res.Verdict != "":
		found = fmt.Sprintf("`%s` in schedule %d (%s); shrunk to %d entries, replays to %s",
			res.Verdict, res.FoundAt, res.Strategy, len(res.Shrunk), codeList(res.Verdicts))
	case res.Complete:
		found = fmt.Sprintf("none in any of %d schedules (exhaustive, complete)", res.Schedules)
	default:
		found = fmt.Sprintf("none in %d schedules (%s, not complete)", res.Schedules, res.Strategy)
	}
	budget := r.Budget
	if r.Unsearched != "" {
		budget += " (not searched: " + r.Unsearched + ")"
	}
	return fmt.Sprintf("| `%s` | %s | %s | %s |", r.ID, codeList(strings.Split(r.Expect, ", ")), budget, found)
}

func codeList(vs []string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "`" + v + "`"
	}
	return strings.Join(out, ", ")
}
