package lesson

import (
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// BuildQuiet makes the world for a scenario and seed on embedded Redis
// with no event log and no narration, for a search that runs many
// schedules and reads only their verdicts. The checker still sees every
// event, with the key states it needs. maxSteps caps the run (0: the
// engine's default).
func BuildQuiet(sc *scenario.Scenario, seed int64, maxSteps int) (*Run, error) {
	return build(sc, seed, sim.Config{NoLog: true, MaxSteps: maxSteps}, nil)
}
