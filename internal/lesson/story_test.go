package lesson

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Every scripted line of every lesson is said in the lesson's own run, at
// its moment, and what it claims about the run holds there: the lesson
// never says what its run does not show.
func TestEveryScriptedLineIsSaidAndTrue(t *testing.T) {
	f := catalog(t)
	claims := 0
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		for _, n := range sc.Narration {
			if n.Claim != nil {
				claims++
			}
		}
		t.Run(sc.ID, func(t *testing.T) {
			r, err := Build(sc, sc.Seed)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			r.RunToEnd()
			for _, u := range r.Unsaid() {
				t.Errorf("line %d (%q), at #%d: its claim is false: %s", u.Line, sc.Narration[u.Line].En, u.At, u.Why)
			}
			said := map[string]bool{}
			for _, e := range r.World.Log() {
				if e.Kind == sim.KindSay {
					if e.Name != "" {
						t.Errorf("an on-script run of a lesson with narration says a %s line: %s", e.Name, e)
					}
					said[e.Say.En] = true
				}
			}
			for j, n := range sc.Narration {
				if !said[n.En] && !unsaidLine(r, j) {
					t.Errorf("line %d (%q) is never said: its moment never comes", j, n.En)
				}
			}
		})
	}
	t.Logf("%d scripted lines declare a claim", claims)
}

func unsaidLine(r *Run, line int) bool {
	for _, u := range r.Unsaid() {
		if u.Line == line {
			return true
		}
	}
	return false
}

// A claim that the run contradicts keeps its line unsaid, and says why.
func TestAFalseClaimKeepsItsLineUnsaid(t *testing.T) {
	sc := *builtin(t, "blind-del-long-work")
	sc.Narration = []scenario.Narration{{
		When: scenario.When{On: &scenario.Match{Kind: "exec", Client: "A", Cmd: "DEL"}},
		Text: sim.Text{En: "A just freed B's lock.", Zh: "A 把 B 的锁删了。"},
		// Just before A's DEL ran, the key held C's lock, not B's: after
		// it, the key is gone, so a claim that it holds B's lock is false.
		Claim: &scenario.Claim{Holds: []scenario.KeyHold{{Client: "B"}}},
	}}
	r, err := Build(&sc, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	r.RunToEnd()
	for _, e := range r.World.Log() {
		if e.Kind == sim.KindSay && strings.Contains(e.Say.En, "freed B's lock") {
			t.Fatalf("said a line whose claim is false: %s", e)
		}
	}
	if u := r.Unsaid(); len(u) != 1 || !strings.Contains(u[0].Why, "not B's lock") {
		t.Fatalf("want one unsaid line whose reason names B's lock, got %+v", u)
	}
}
