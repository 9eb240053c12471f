package reference

import (
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// The reference checker names, by its own definitions, every verdict the
// vocabulary declares (sim.Verdicts), and no other: a verdict added there
// needs its definition here too.
func TestReferenceNamesEveryVerdict(t *testing.T) {
	own := []string{mutualExclusion, foreignUnlock, deadlock, starvation, staleWrite, noProgress, oversell, lostUpdate, safe}
	slices.Sort(own)
	want := slices.Sorted(slices.Values(sim.Verdicts))
	if !slices.Equal(own, want) {
		t.Errorf("the reference checker names %v; sim.Verdicts declares %v", own, want)
	}
}
