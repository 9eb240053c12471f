package lesson

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// userScenario is a scenario of testdata/checker/users.yaml, written as a
// user would write it, outside the catalog.
func userScenario(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	const path = "testdata/checker/users.yaml"
	f, err := scenario.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("%s has no scenario %q", path, id)
	}
	return sc
}

// stepUntil steps the engine until an event whose line holds text is
// logged, and returns that event.
func stepUntil(t *testing.T, s *Session, text string) *sim.Event {
	t.Helper()
	for n := len(s.Log()); ; n = len(s.Log()) {
		if ok, err := s.Step(); err != nil || !ok {
			t.Fatalf("the run ended (%v) before %q", err, text)
		}
		for _, e := range s.Log()[n:] {
			if strings.Contains(e.String(), text) {
				return e
			}
		}
	}
}

// A challenge a user wrote on a scenario of their own: oversell two items
// with one pause. A pauses once it has read the stock inside; its 500ms
// lease runs out, B and C sell both items, and A's late write is the third
// sale (B entered while A was inside, too: a mutual-exclusion verdict on
// the way, which is not the goal). The goal is reached at that write, the moment it lands: not
// before it, and not at the horizon.
func TestAUserWrittenChallengeIsReachedAtTheWriteThatOversells(t *testing.T) {
	sc := userScenario(t, "cart-lease-challenge")
	s, err := NewSession(scenario.ChallengeRun(sc), cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	stepUntil(t, s, "redis <- A: GET stock")
	if err := s.Inject(scenario.Fault{Do: "pause", Client: "A", For: scenario.Duration(1e9)}); err != nil {
		t.Fatal(err)
	}
	stepUntil(t, s, "mark C deduct")
	if p := s.Challenge(); p.Reached || p.Over {
		t.Fatalf("B and C sold the two items: nothing oversold yet, got %+v", p)
	}
	w := stepUntil(t, s, "redis <- A: SET stock")
	p := s.Challenge()
	if !p.Reached || !p.Won || p.At != w.Seq {
		t.Fatalf("progress %+v, want the goal won at A's write #%d:\n%s", p, w.Seq, w)
	}
	if p.Faults != 1 || p.MovesAt != w.Step+1 {
		t.Errorf("faults %d, moves by then %d; want 1 and %d (the steps up to #%d and the pause)", p.Faults, p.MovesAt, w.Step+1, w.Seq)
	}
	if !slicesContain(p.Refs, w.Seq) || p.Why == nil || !strings.Contains(p.Why.En, "2") {
		t.Errorf("refs %v, why %v: want the oversell's proof, A's write #%d among it", p.Refs, p.Why, w.Seq)
	}
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	// B entered while the paused A was still inside, too
	if got := s.Run().Verdicts(); !SameVerdicts(got, []string{"mutual-exclusion", "oversell"}) {
		t.Errorf("verdicts at the horizon %v, want [mutual-exclusion oversell]", got)
	}
	if q := s.Challenge(); q.At != p.At || !q.Won {
		t.Errorf("after the horizon the progress moved: %+v, was %+v", q, p)
	}
}

func slicesContain(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
