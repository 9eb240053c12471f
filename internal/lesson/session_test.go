package lesson

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

func builtin(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	sc, ok := f.Find(id)
	if !ok {
		t.Fatalf("no built-in scenario %q", id)
	}
	return sc
}

func text(log []*sim.Event) string {
	var b strings.Builder
	for i := range log {
		b.WriteString(log[i].String() + "\n")
	}
	return b.String()
}

func newSession(t *testing.T, id string) *Session {
	t.Helper()
	sc := builtin(t, id)
	s, err := NewSession(sc, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// Seeking back and forth shows exactly what stepping forward showed.
func TestSeekReplaysTheSameLog(t *testing.T) {
	s := newSession(t, "blind-del-slow-release")
	if err := s.Seek(40); err != nil {
		t.Fatal(err)
	}
	at40 := text(s.Log())
	if err := s.Seek(70); err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(40); err != nil {
		t.Fatal(err)
	}
	if got := text(s.Log()); got != at40 {
		t.Fatalf("log at step 40 after seeking back differs:\n got:\n%s\nwant:\n%s", got, at40)
	}
}

// The user as scheduler: B reads before A writes, by hand, and the stock
// is sold twice; the recording replays the same log.
func TestManualStepsAndRecordingReplay(t *testing.T) {
	sc := *builtin(t, "no-lock-oversell")
	sc.Clients = append([]scenario.Client(nil), sc.Clients...)
	sc.Clients[1].Start = 0 // both ready at once: only the user decides
	s, err := NewSession(&sc, cfg(7))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []string{"A", "B", "A", "B", "A", "B"} { // start, exec GET, reply
		if ok, err := s.StepClient(c); err != nil || !ok {
			t.Fatalf("StepClient(%s) = %v, %v", c, ok, err)
		}
	}
	if err := s.Inject(scenario.Fault{Do: "pause", Client: "A", For: scenario.Duration(1)}); err != nil {
		t.Fatal(err)
	}
	for ok := true; ok; {
		if ok, err = s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	want := text(s.Log())
	if v := s.Run().Verdicts(); !SameVerdicts(v, []string{"oversell"}) {
		t.Fatalf("verdicts = %v, want [oversell]\n%s", v, want)
	}
	rec, err := s.Recording(Config{Servers: embedded.Servers{}})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := NewSession(&rec, cfg(rec.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for ok := true; ok; {
		if ok, err = s2.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if got := text(s2.Log()); got != want {
		t.Fatalf("replayed recording differs:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// A session folds key states as its log grows; at every step, and after
// seeking back, what it shows equals a replay of the whole log.
func TestNodesFoldEqualsAReplay(t *testing.T) {
	f := catalog(t)
	for _, id := range []string{"redlock-restart-empty", "failover-lost-lock", "watchdog-long-work"} {
		sc, ok := f.Find(id)
		if !ok {
			t.Fatalf("no lesson %s", id)
		}
		s, err := NewSession(sc, cfg(sc.Seed))
		if err != nil {
			t.Fatal(err)
		}
		check := func() {
			w := s.Run().World
			want := NodesAt(append(w.NodeNames(), w.ServiceNames()...), s.Log(), w.Now())
			if got := s.Nodes(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s at step %d: the folded key states differ from a replay\ngot  %v\nwant %v", id, s.Cursor(), got, want)
			}
		}
		for more := true; more; {
			check()
			if more, err = s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		check()
		if err := s.Seek(s.Cursor() / 2); err != nil {
			t.Fatal(err)
		}
		check()
		s.Close()
	}
}

// A run scheduled by hand to its last move ends with that move: the
// verdict is in without another Step, nobody is offered a move, and a
// replay of the recorded actions to the same cursor gives the same log.
func TestLastMoveByHandEndsTheRun(t *testing.T) {
	s := newSession(t, "no-lock-oversell")
	for i := 0; i < 100 && !s.Run().Done(); i++ {
		p := s.Pending()
		if len(p) == 0 {
			t.Fatalf("step %d: nobody can move, yet the run is not over", s.Cursor())
		}
		if ok, err := s.StepClient(p[0]); err != nil || !ok {
			t.Fatalf("step %d: StepClient(%s) = %v, %v", s.Cursor(), p[0], ok, err)
		}
	}
	if !s.Run().Done() || len(s.Run().Verdicts()) == 0 {
		t.Fatalf("after the last move by hand: expected the run over with its verdict, got done=%v verdicts=%v", s.Run().Done(), s.Run().Verdicts())
	}
	if p := s.Pending(); len(p) != 0 {
		t.Errorf("after the end: expected no one to move, got %v", p)
	}
	want, at := text(s.Log()), s.Cursor()
	if err := s.Seek(0); err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(at); err != nil {
		t.Fatal(err)
	}
	if got := text(s.Log()); got != want || !s.Run().Done() {
		t.Errorf("replaying the hand-made run to step %d: expected the same ended log\n%s\ngot (done=%v)\n%s", at, want, s.Run().Done(), got)
	}
}

// A second pause of a paused client that would end before the first one
// changes nothing: it is refused with the reason, and neither recorded nor
// taken as a move off the lesson's script. One that outlasts it is taken.
func TestPausingAPausedClientIsRefusedWhenItChangesNothing(t *testing.T) {
	s, err := NewSession(builtin(t, "blind-del-slow-release"), cfg(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Seek(3); err != nil {
		t.Fatal(err)
	}
	second := scenario.Duration(time.Second)
	if err := s.Inject(scenario.Fault{Do: "pause", Client: "A", For: 2 * second}); err != nil {
		t.Fatal(err)
	}
	events := len(s.Log())
	err = s.Inject(scenario.Fault{Do: "pause", Client: "A", For: second})
	if !errors.Is(err, sim.ErrBadFault) || !strings.Contains(err.Error(), "A is already paused until") {
		t.Fatalf("a 1s pause of A paused for 2s: want a refusal saying A is paused, got %v", err)
	}
	if len(s.Actions()) != 1 || len(s.Log()) != events {
		t.Errorf("the refused pause left a trace: %d actions (want 1), %d events (want %d)", len(s.Actions()), len(s.Log()), events)
	}
	if err := s.Inject(scenario.Fault{Do: "pause", Client: "A", For: 3 * second}); err != nil {
		t.Errorf("a 3s pause outlasts the 2s one: want it taken, got %v", err)
	}
	if len(s.Actions()) != 2 {
		t.Errorf("want 2 recorded pauses, got %d", len(s.Actions()))
	}
}
