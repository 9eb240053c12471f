package lesson

import (
	"testing"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Off its script, a run shows the lesson's chapters as true only up to the
// cursor where the user's action took it off (Run.LeftScriptAt): each
// chapter found at or before that cursor is a line this run said, at the
// same event; the ones after are the lesson's plan. The cut is tried on
// the step of a chapter and the step before it, in every lesson with
// chapters, with the first fault the engine accepts there.
func TestChaptersUpToTheCutAreThisRuns(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		chs, err := Chapters(sc, cfg(sc.Seed), 50000)
		if err != nil {
			t.Fatal(err)
		}
		if len(chs) < 2 || sc.Challenge != nil {
			continue
		}
		mid := chs[len(chs)/2]
		for _, cut := range []int{mid.Step - 1, mid.Step} {
			s, err := NewSession(sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Seek(cut); err != nil || s.Cursor() != cut {
				t.Fatalf("%s: seek %d: at %d, %v", sc.ID, cut, s.Cursor(), err)
			}
			if _, off := s.Run().LeftScriptAt(); off || s.View().OffScriptAt != 0 {
				t.Fatalf("%s: off its script before any user action", sc.ID)
			}
			if !injectSomething(s) {
				s.Close()
				continue
			}
			tried++
			if at, off := s.Run().LeftScriptAt(); !off || at != cut {
				t.Errorf("%s: a fault at cursor %d: LeftScriptAt = %d, %v", sc.ID, cut, at, off)
			}
			if v := s.View(); !v.OffScript || v.OffScriptAt != cut {
				t.Errorf("%s: a fault at cursor %d: the view has OffScript %v at %d", sc.ID, cut, v.OffScript, v.OffScriptAt)
			}
			if err := s.RunToEnd(); err != nil {
				t.Fatal(err)
			}
			log := s.Log()
			for _, ch := range chs {
				if ch.Step > cut {
					break
				}
				if ch.Seq > len(log) || !IsBeat(log[ch.Seq-1]) || log[ch.Seq-1].Say.En != ch.Text.En {
					t.Errorf("%s: cut at %d: chapter %q (step %d, #%d) is not this run's line", sc.ID, cut, ch.Text.En, ch.Step, ch.Seq)
				}
			}
			s.Close()
		}
	}
	if tried < 10 {
		t.Errorf("only %d cuts tried: the test checks little", tried)
	}
}

// injectSomething injects the first fault the run accepts now: a pause of
// a client, a node's crash.
func injectSomething(s *Session) bool {
	for _, c := range s.Run().World.ClientNames() {
		if s.Inject(scenario.Fault{Do: "pause", Client: c, For: scenario.Duration(1e9)}) == nil {
			return true
		}
	}
	for _, n := range s.Run().World.NodeNames() {
		if s.Inject(scenario.Fault{Do: "node-crash", Node: n}) == nil {
			return true
		}
	}
	return false
}
