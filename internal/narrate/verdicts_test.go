package narrate_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/check/reference"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/narrate"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

type verdictWord struct {
	Kind    narrate.ClaimKind
	Verdict string
	Says    func(narrate.Claim) bool
}

// verdictWords are the story's lines that say, in other words, what a
// verdict says: the correspondence is declared once, here. A line of
// Kind asserts Verdict at its event when Says holds of its claim (nil:
// always); the checker reports that verdict right after that event. The
// other lines state what happened (a key removed, a lock expired, a write
// refused) and assert no verdict: a removal is a foreign unlock only if
// its victim still believed, which the line does not say.
var verdictWords = []verdictWord{
	// "The storage accepts A's write…: a stale write."
	{narrate.ClaimStaleWrite, sim.VerdictStaleWrite, nil},
	// "B enters the critical section while A is still inside."
	{narrate.ClaimEnters, sim.VerdictMutualExclusion, func(c narrate.Claim) bool { return len(c.Inside) > 0 }},
}

// Story and verdicts never disagree: on the catalog, the labs, the
// checker's scenarios outside the catalog and 200 generated scenarios,
// every line that says a verdict in other words (verdictWords) stands at
// an event right after which the reference checker — not the checker the
// story is told from — reports that verdict, and every such verdict the
// reference reports right after an event has its line there. The story's
// closing lines ("The checker finds …") name exactly the reference's
// verdicts.
func TestStoryAndVerdictsAgree(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 50
	}
	all := corpus(t, 33, n)
	asserted := map[string]int{}
	for _, sc := range all {
		log := run(t, sc)
		for _, p := range disagreements(sc, log, asserted) {
			t.Errorf("%s: %s", sc.ID, p)
		}
	}
	t.Logf("%d scenarios; lines asserting a verdict: %v", len(all), asserted)
	for _, w := range verdictWords {
		if asserted[w.Verdict] == 0 {
			t.Errorf("no line of the corpus says %s: the test checks nothing of it", w.Verdict)
		}
	}
}

// disagreements tells the story of log and lists where it and the
// reference checker's verdicts disagree; asserted counts the lines that
// say a verdict.
func disagreements(sc *scenario.Scenario, log []*sim.Event, asserted map[string]int) []string {
	flat := make([]sim.Event, len(log))
	for i, e := range log {
		flat[i] = *e
	}
	opt := lesson.CheckOptions(sc)
	verdicts := reference.Check(flat, opt)
	reported := map[string]map[int]bool{} // verdict -> events right after which it is reported
	var names []string
	for _, v := range verdicts {
		if reported[v.Name] == nil {
			reported[v.Name] = map[int]bool{}
		}
		reported[v.Name][v.After] = true
		names = append(names, v.Name)
	}
	said := map[string]map[int]bool{} // verdict -> events at which a line says it
	var out, closing []string
	for _, l := range narrate.Tell(log, opt) {
		seq := l.Refs[0]
		if m := checkerFinds.FindStringSubmatch(l.Text.En); m != nil && seq == 0 {
			name := m[1]
			if name == "the run safe" {
				name = sim.VerdictSafe
			}
			closing = append(closing, name)
			continue
		}
		for _, w := range verdictWords {
			if l.Claim.Kind != w.Kind || w.Says != nil && !w.Says(l.Claim) {
				continue
			}
			asserted[w.Verdict]++
			if said[w.Verdict] == nil {
				said[w.Verdict] = map[int]bool{}
			}
			said[w.Verdict][seq] = true
			if !reported[w.Verdict][seq] {
				out = append(out, fmt.Sprintf("#%d %q says %s; the reference reports %v", seq, l.Text.En, w.Verdict, verdicts))
			}
		}
	}
	for _, v := range verdicts {
		spoken := slices.ContainsFunc(verdictWords, func(w verdictWord) bool { return w.Verdict == v.Name })
		if spoken && v.After > 0 && !said[v.Name][v.After] {
			out = append(out, fmt.Sprintf("the reference reports %s right after #%d; no line of the story there says so", v, v.After))
		}
	}
	if !slices.Equal(closing, names) {
		out = append(out, fmt.Sprintf("the story's closing lines find %v; the reference reports %v", closing, names))
	}
	return out
}

// checkerFinds reads a verdict's line of the story: "The checker finds
// stale-write." or "The checker finds the run safe."
var checkerFinds = regexp.MustCompile(`^The checker finds (the run safe|[a-z-]+)\.$`)
