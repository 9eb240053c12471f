package lesson

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// play runs a lesson's challenge with a schedule written as moves:
// "s" (the engine's step), "s22" (22 of them), "c:A" (a step of A by
// hand), "f:pause:A" (A pauses 1s), "f:clock-jump:r3" (+5s),
// "f:failover:master", "f:crash:A", "u:resume" (engine steps until an
// event's line holds the text), "end" (to the end).
func play(t *testing.T, id string, moves ...string) *Progress {
	t.Helper()
	sc := builtin(t, id)
	if sc.Challenge == nil {
		t.Fatalf("%s has no challenge", id)
	}
	s, err := NewSession(scenario.ChallengeRun(sc), cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for _, m := range moves {
		var err error
		switch {
		case m == "end":
			err = s.RunToEnd()
		case strings.HasPrefix(m, "u:"):
			n := len(s.Log())
			for found := false; !found; {
				if ok, err := s.Step(); err != nil || !ok {
					t.Fatalf("%s: the run ended before %q", m, m[2:])
				}
				for _, e := range s.Log()[n:] {
					found = found || strings.Contains(e.String(), m[2:])
				}
			}
		case strings.HasPrefix(m, "s"):
			n := 1
			if len(m) > 1 {
				n = atoi(t, m[1:])
			}
			for range n {
				if _, err = s.Step(); err != nil {
					break
				}
			}
		case strings.HasPrefix(m, "c:"):
			var ok bool
			if ok, err = s.StepClient(m[2:]); err == nil && !ok {
				t.Fatalf("%s had no move", m[2:])
			}
		case strings.HasPrefix(m, "f:"):
			p := strings.Split(m, ":")
			f := scenario.Fault{Do: p[1]}
			switch p[1] {
			case "pause":
				f.Client, f.For = p[2], scenario.Duration(1e9)
			case "crash":
				f.Client = p[2]
			case "clock-jump":
				f.Node, f.By = p[2], scenario.Duration(5e9)
			default:
				f.Node = p[2]
			}
			err = s.Inject(f)
		}
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	return s.Challenge()
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("bad count %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Each built-in challenge can be won, and the checker tells the moment:
// the winning schedules below were found by hand, in the browser's moves.
func TestChallengesCanBeWon(t *testing.T) {
	pause := []string{"f:pause:A", "u:resume"}
	cases := []struct {
		id    string
		moves []string
	}{
		{"no-lock-oversell", []string{"c:A", "c:A", "c:B", "c:B", "c:A", "c:A", "c:A", "c:B", "c:B", "c:B"}},
		{"blind-del-slow-release", []string{"s22", "f:pause:A", "s60"}},
		// Its hint, as a class follows it (the class plan's challenge):
		// step until A has sent its write, then pause A. (At A's leave
		// mark it is too late: the same step sends its DEL.)
		{"blind-del-slow-release", []string{"u:send A -> redis: SET stock", "f:pause:A", "s60"}},
		{"redlock-clock-jump", []string{"s8", "f:clock-jump:r3", "f:clock-jump:r3", "s80"}},
		{"lease-pause-stale-write", append(append(append([]string{"s2"}, pause...), pause...), append(pause, "s40")...)},
		{"failover-lost-lock", []string{"s2", "f:failover:master", "s40"}},
		{"setnx-crash-deadlock", []string{"s1", "f:crash:A", "end"}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			p := play(t, c.id, c.moves...)
			if !p.Won || !p.Reached || p.Over || p.At == 0 || len(p.Refs) == 0 || p.Why == nil {
				t.Fatalf("want won with its proof, got %+v", *p)
			}
			ch := builtin(t, c.id).Challenge
			if p.MovesAt > ch.Moves {
				t.Fatalf("won at %d moves, over the limit of %d", p.MovesAt, ch.Moves)
			}
		})
	}
}

// The engine's own order reaches the oversell too, but in more moves than
// the challenge allows: reached, not won.
func TestAChallengeReachedTooLateIsNotWon(t *testing.T) {
	p := play(t, "no-lock-oversell", "s20")
	if !p.Reached || p.Won || !p.Over || p.Reason != "moves" || p.MovesAt <= 10 {
		t.Fatalf("want reached in more than 10 moves and not won, got %+v", *p)
	}
}

// The goal names who does it: A deleting B's lock is not B deleting A's,
// and a run that has not reached it yet is not over.
func TestAChallengeNotYetWon(t *testing.T) {
	p := play(t, "blind-del-slow-release", "s10")
	if p.Reached || p.Won || p.Over || p.Moves != 10 {
		t.Fatalf("after 10 engine steps: want not yet, got %+v", *p)
	}
	// Without the pause, the run ends safe: over, not won.
	p = play(t, "blind-del-slow-release", "end")
	if p.Reached || p.Won || !p.Over {
		t.Fatalf("a run without a fault: want over and not won, got %+v", *p)
	}
}

// The two impossible challenges stay unwon under the attack that wins
// their unsafe twins: compare-and-delete and fencing tokens hold.
func TestImpossibleChallengesHold(t *testing.T) {
	pause := []string{"f:pause:A", "u:resume"}
	var fenced []string
	fenced = append(fenced, "s2")
	for range 4 {
		fenced = append(fenced, pause...)
	}
	for _, c := range []struct {
		id    string
		moves []string
	}{
		{"lua-cad-slow-release", []string{"s22", "f:pause:A", "end"}},
		{"fencing-token-rejects-stale", append(fenced, "f:pause:A", "end")},
	} {
		p := play(t, c.id, c.moves...)
		if p.Reached || p.Won {
			t.Errorf("%s: the goal cannot be reached, got %+v", c.id, *p)
		}
	}
}

// The challenge run drops the lesson's scripted faults (but those it
// keeps) and narration, and the story it tells says nothing of leaving a
// script it never had.
func TestChallengeRunDropsTheScript(t *testing.T) {
	sc := builtin(t, "redlock-clock-jump")
	run := scenario.ChallengeRun(sc)
	if len(run.Narration) != 0 || len(run.Faults) != 2 || run.Faults[0].Do != "partition" || run.Faults[1].Do != "partition" {
		t.Fatalf("want the two partitions and no narration, got faults %+v, %d lines", run.Faults, len(run.Narration))
	}
	if len(sc.Faults) != 3 || len(sc.Narration) == 0 {
		t.Fatal("ChallengeRun changed the lesson itself")
	}
	s, err := NewSession(run, cfg(sc.Seed))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.StepClient("A"); err != nil {
		t.Fatal(err)
	}
	for _, e := range s.Log() {
		if e.Name == SayOffScript {
			t.Fatalf("a challenge run has no script to leave: %s", e)
		}
	}
}
