package lesson

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// crashAt runs a scenario to step n, crashes client c there (restarting it
// after restart, if > 0), runs to the end and fails if any thread ended
// with a panic note, if the run never ended, or if c sent a command while
// it was dead. It reports whether the crash was injected (false: the run
// was over before step n).
func crashAt(t *testing.T, sc *scenario.Scenario, n int, c string, restart time.Duration) bool {
	t.Helper()
	s, err := NewSession(sc, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Seek(n); err != nil {
		t.Fatalf("%s: seek %d: %v", sc.ID, n, err)
	}
	if s.Run().World.Ended() {
		return false
	}
	what := fmt.Sprintf("%s: crash %s at step %d", sc.ID, c, n)
	if restart > 0 {
		what += fmt.Sprintf(" (restart after %s)", restart)
	}
	crashed := len(s.Log())
	if err := s.Inject(scenario.Fault{Do: "crash", Client: c, For: scenario.Duration(restart)}); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.RunToEnd(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !s.Run().World.Ended() {
		t.Fatalf("%s: the run did not end", what)
	}
	dead := true
	for i, e := range s.Log() {
		if e.Fact != nil && e.Fact.Key == fact.Panic {
			t.Fatalf("%s: %s", what, e.String())
		}
		if i <= crashed || e.Client != c {
			continue
		}
		if e.Kind == sim.KindFault && e.Name == "restart" {
			dead = false
		}
		if dead && e.Kind == sim.KindSend {
			t.Fatalf("%s: the dead client sent a command: %s", what, e.String())
		}
	}
	return true
}

// A crash of A while it is inside WATCH / MULTI / EXEC unwinds A cleanly:
// go-redis closes the transaction on the way out (UNWATCH), but a dead
// process sends nothing, no thread ends in a panic, and the others run on
// to the end. These are the moments the crash used to end A's program
// with "acted outside its own scheduled thread".
func TestCrashInsideWatchUnwindsCleanly(t *testing.T) {
	f := catalog(t)
	for _, c := range []struct {
		id    string
		steps []int
	}{
		{"watch-three-buyers", []int{9}},
		{"watch-six-buyers", []int{9, 30}},
		{"watch-release-expire-between", []int{30}},
	} {
		sc, ok := f.Find(c.id)
		if !ok {
			t.Fatalf("no lesson %s", c.id)
		}
		for _, n := range c.steps {
			if !crashAt(t, sc, n, "A", 0) {
				t.Fatalf("%s ends before step %d: the case no longer tests a crash", c.id, n)
			}
		}
	}
}

// Every lesson built on WATCH (and the watchdog ones), with its first
// client crashed at each of its first 40 steps, and crashed and restarted
// at every fourth; and every lab built on WATCH, crashed at every fourth
// step (labs are long: each crash runs a thousand requests to the end).
// No step of the sweep ends in a panic or lets the dead client send.
func TestCrashSweepOfWatchScenarios(t *testing.T) {
	swept := 0
	sweep := func(sc *scenario.Scenario, every int, restart bool) {
		if !usesWatch(sc) {
			return
		}
		swept++
		first := sc.Clients[0].Name
		for n := 1; n <= 40; n += every {
			if !crashAt(t, sc, n, first, 0) {
				return
			}
			if restart && n%4 == 1 {
				crashAt(t, sc, n, first, time.Millisecond)
			}
		}
	}
	lessons := catalog(t).Scenarios
	for i := range lessons {
		sweep(&lessons[i], 1, true)
	}
	if testing.Short() {
		return
	}
	names, files := lockstep.Labs()
	for i, n := range names {
		f, err := scenario.ParseBuiltin(n, files[i])
		if err != nil {
			t.Fatal(err)
		}
		for j := range f.Scenarios {
			sweep(&f.Scenarios[j], 4, false)
		}
	}
	if swept < 7 {
		t.Fatalf("swept %d scenarios built on WATCH or the watchdog, want the 6 lessons and a lab", swept)
	}
}

func usesWatch(sc *scenario.Scenario) bool {
	for _, c := range sc.Clients {
		if strings.HasPrefix(c.Algorithm, "watch") {
			return true
		}
	}
	return false
}
