package lesson

import (
	"math/rand/v2"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// A follower that sees only the leader's (actions, cursor), now and then,
// ends up with the leader's log byte for byte, whatever the leader did in
// between: steps, hand moves, faults, steps back, and faults after a step
// back (a new branch). This is what a class's students do.
func TestFollowReplaysTheLeader(t *testing.T) {
	for _, id := range []string{"no-lock-oversell", "setnx-expire-crash-between", "redlock-clock-jump", "thread-id-pool-reuse"} {
		sc := builtin(t, id)
		for seed := range uint64(12) {
			rng := rand.New(rand.NewPCG(seed, 23))
			lead, err := NewSession(sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			follow, err := NewSession(sc, cfg(sc.Seed))
			if err != nil {
				t.Fatal(err)
			}
			var did []string
			for range 60 {
				switch r := rng.IntN(10); {
				case r < 4:
					_, _ = lead.Step()
					did = append(did, "step")
				case r < 6 && len(lead.Pending()) > 0:
					c := lead.Pending()[rng.IntN(len(lead.Pending()))]
					_, _ = lead.StepClient(c)
					did = append(did, "step "+c)
				case r < 7 && !lead.Run().World.Ended():
					c := sc.Clients[rng.IntN(len(sc.Clients))].Name
					f := scenario.Fault{Do: "pause", Client: c, For: scenario.Duration(300e6)}
					if lead.Inject(f) == nil {
						did = append(did, "pause "+c)
					}
				case r < 9:
					_ = lead.Seek(lead.Cursor() - 1 - rng.IntN(3))
					did = append(did, "back")
				default:
					_ = lead.Seek(lead.Cursor() + rng.IntN(5))
					did = append(did, "seek")
				}
				if rng.IntN(3) > 0 {
					continue // the follower sees only some positions
				}
				if err := follow.Follow(lead.Actions()); err != nil {
					t.Fatalf("%s seed %d after %v: follow: %v", id, seed, did, err)
				}
				if err := follow.Seek(lead.Cursor()); err != nil {
					t.Fatalf("%s seed %d after %v: seek: %v", id, seed, did, err)
				}
				if got, want := text(follow.Log()), text(lead.Log()); got != want {
					t.Fatalf("%s seed %d after %v: the follower's log differs:\n%s\nthe leader's:\n%s", id, seed, did, got, want)
				}
			}
			lead.Close()
			follow.Close()
		}
	}
}
