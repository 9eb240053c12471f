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
			r, err := New(sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if err := r.RunToEnd(); err != nil {
				t.Fatal(err)
			}
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
	r, err := New(&sc, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	for _, e := range r.World.Log() {
		if e.Kind == sim.KindSay && strings.Contains(e.Say.En, "freed B's lock") {
			t.Fatalf("said a line whose claim is false: %s", e)
		}
	}
	if u := r.Unsaid(); len(u) != 1 || !strings.Contains(u[0].Why, "not B's lock") {
		t.Fatalf("want one unsaid line whose reason names B's lock, got %+v", u)
	}
}

// sayLines gives the say events of a log from seq from on: scripted lines
// (no name) and the others by name.
func sayLines(log []*sim.Event, from int) (scripted []string, named map[string][]string) {
	named = map[string][]string{}
	for _, e := range log[from:] {
		if e.Kind != sim.KindSay {
			continue
		}
		if e.Name == "" {
			scripted = append(scripted, e.Say.En)
		} else {
			named[e.Name] = append(named[e.Name], e.Say.En)
		}
	}
	return scripted, named
}

// The failover lesson with WAIT, changed by hand: the master fails over
// right after A's SET ran on it, before the replica has it. The lesson's
// line "B's SET NX reaches the promoted replica, which holds A's lock"
// would now be false. Once the user injects the fault the run is off its
// script: a note says so, and no scripted line follows. The promoted
// replica has no replica of its own, so no WAIT 1 can succeed: A and B
// each take the lock there and give it back, again and again, and nobody
// ever enters. The story says so, and never that anyone acquires.
func TestAUserFaultTakesTheRunOffItsScript(t *testing.T) {
	s, err := NewSession(builtin(t, "failover-wait-replica"), cfg(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for !strings.Contains(text(s.Log()), "exec master <- A: SET lock") {
		if ok, err := s.Step(); err != nil || !ok {
			t.Fatalf("the run ended before A's SET ran on the master (%v)", err)
		}
	}
	if s.Run().OffScript() {
		t.Fatal("the run is off its script before any user action")
	}
	before := len(s.Log())
	if err := s.Inject(scenario.Fault{Do: "failover", Node: "master"}); err != nil {
		t.Fatal(err)
	}
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	log := s.Log()
	if log[before].Kind != sim.KindFault || log[before+1].Name != SayOffScript {
		t.Fatalf("want the fault, then the off-script note; got\n%s\n%s", log[before], log[before+1])
	}
	scripted, named := sayLines(log, before)
	if len(scripted) > 0 {
		t.Errorf("scripted lines said after the run left its script: %q", scripted)
	}
	if len(named[SayOffScript]) != 1 {
		t.Errorf("want one off-script note, got %q", named[SayOffScript])
	}
	story := strings.Join(named[SayStory], "\n")
	for _, want := range []string{
		"A's WAIT finds no replica that has the lock: A gives it back and tries again.",
		"B's WAIT finds no replica that has the lock: B gives it back and tries again.",
		"The checker finds the run safe.",
	} {
		if !strings.Contains(story, want) {
			t.Errorf("the story lacks %q:\n%s", want, story)
		}
	}
	if strings.Contains(story, "acquires") || strings.Contains(story, "Where things stand: lock on master") {
		t.Errorf("the story says someone acquires, or counts the dead master's keys:\n%s", story)
	}
	for _, e := range log[before:] {
		if e.Kind == sim.KindSay && e.Say.Zh == "" {
			t.Errorf("a line without its Chinese: %s", e)
		}
	}
}

// The same stall as lua-cad-slow-release, but the user pauses A for 5s
// just after it enters: its lease runs out under it and B walks in. The
// lesson's closing line, "No two clients were ever inside together",
// must not be said; the story says who entered beside whom.
func TestNoScriptedLineAfterAUserPause(t *testing.T) {
	s, err := NewSession(builtin(t, "lua-cad-slow-release"), cfg(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for !strings.Contains(text(s.Log()), "mark A enter") {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Inject(scenario.Fault{Do: "pause", Client: "A", For: scenario.Duration(5e9)}); err != nil {
		t.Fatal(err)
	}
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	scripted, named := sayLines(s.Log(), 0)
	if len(scripted) > 0 {
		t.Errorf("scripted lines said in a run the user changed: %q", scripted)
	}
	story := strings.Join(named[SayStory], "\n")
	for _, want := range []string{
		"A's lock on redis expires while A is still inside.",
		"B enters the critical section while A is still inside.",
		"The checker finds mutual-exclusion.",
	} {
		if !strings.Contains(story, want) {
			t.Errorf("the story lacks %q:\n%s", want, story)
		}
	}
}

// Stepping a client by hand is a change to the run too: in
// no-lock-oversell the user lets B move first, before A has read
// anything. The run leaves its script at B's first event, and none of the
// lesson's lines (which tell of A reading first) is said.
func TestAManualStepTakesTheRunOffItsScript(t *testing.T) {
	s, err := NewSession(builtin(t, "no-lock-oversell"), cfg(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := len(s.Log())
	if ok, err := s.StepClient("B"); err != nil || !ok {
		t.Fatalf("StepClient(B) = %v, %v", ok, err)
	}
	log := s.Log()
	if len(log) < before+2 || log[before].Client != "B" || log[before+1].Name != SayOffScript || log[before+1].Refs[0] != log[before].Seq {
		t.Fatalf("want B's first event, then the off-script note pointing at it; got\n%s", text(log[before:]))
	}
	if !s.Run().OffScript() {
		t.Fatal("the run does not report that it is off its script")
	}
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	if scripted, _ := sayLines(s.Log(), 0); len(scripted) > 0 {
		t.Errorf("scripted lines said after a manual step: %q", scripted)
	}
}
