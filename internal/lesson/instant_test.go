package lesson

import (
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// A Redlock file an author writes to cut A off from r4 and r5 before it
// asks: two partitions at 0s, A starting at 0s too. Faults due at an
// instant apply before any client's move at that instant, together and in
// file order, whatever the seed: A's first event comes after both
// partitions, its SETs to r4 and r5 never arrive, and it wins its quorum
// on r1-r3 — the lesson the author wrote, on every seed (the seeded
// tie-break once let one partition land after A's votes).
const twoPartitionsAtZero = `
scenarios:
  - id: two-partitions-at-zero
    title: {en: "A is cut off from r4 and r5 from the start"}
    horizon: 2s
    network: {timeout: 50ms}
    nodes: [{name: r1}, {name: r2}, {name: r3}, {name: r4}, {name: r5}]
    clients:
      - {name: A, algorithm: redlock, params: {ttl: 10s}, task: none, work: 100ms}
    faults:
      - {at: 0s, do: partition, node: r4, client: A}
      - {at: 0s, do: partition, node: r5, client: A}
    expect: [safe]
`

func TestTimedFaultsLandBeforeTheClientsAtTheirInstant(t *testing.T) {
	f, err := scenario.Parse("two-partitions.yaml", []byte(twoPartitionsAtZero))
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	for seed := int64(1); seed <= 30; seed++ {
		for _, byHand := range []bool{false, true} {
			r, err := New(sc, cfg(seed))
			if err != nil {
				t.Fatal(err)
			}
			if byHand {
				// a hand step of A at 0s: the faults due by then come first
				if ok, err := r.Move("A"); !ok || err != nil {
					t.Fatalf("seed %d: Move(A) = %v, %v", seed, ok, err)
				}
			}
			if err := r.RunToEnd(); err != nil {
				t.Fatalf("seed %d (by hand %v): %v", seed, byHand, err)
			}
			var log []*sim.Event // the events, without the story told beside them
			for _, e := range r.World.Log() {
				if e.Kind != sim.KindSay {
					log = append(log, e)
				}
			}
			r.Close()
			var faults, firstOfA []int
			for i, e := range log {
				if e.Kind == sim.KindFault {
					faults = append(faults, i)
					if len(faults) == 1 && e.Node != "r4" || len(faults) == 2 && e.Node != "r5" {
						t.Errorf("seed %d (by hand %v): fault %d is on %s, not in file order", seed, byHand, len(faults), e.Node)
					}
				}
				if e.Client == "A" && e.Kind != sim.KindFault && firstOfA == nil {
					firstOfA = []int{i}
				}
				if e.Kind == sim.KindExec && e.Client == "A" && (e.Node == "r4" || e.Node == "r5") {
					t.Errorf("seed %d (by hand %v): #%d: A's SET reached %s, which the file had cut off", seed, byHand, e.Seq, e.Node)
				}
			}
			if len(faults) != 2 || firstOfA == nil || faults[1] > firstOfA[0] || faults[1] != faults[0]+1 {
				t.Errorf("seed %d (by hand %v): faults at %v, A's first event at %v: want both faults together before A", seed, byHand, faults, firstOfA)
			}
			if !slices.ContainsFunc(log, func(e *sim.Event) bool { return e.Kind == sim.KindMark && e.Name == "quorum" && e.Client == "A" }) {
				t.Errorf("seed %d (by hand %v): A never won its quorum on r1-r3", seed, byHand)
			}
		}
	}
}
