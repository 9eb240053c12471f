package embedded

import (
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Servers places every node of a run on an embedded Redis of its own,
// seeded with the run's seed, on the engine's virtual clock. It is
// lesson.Servers for embedded Redis, as realredis.Servers is for real
// servers: the caller of lesson.New chooses.
type Servers struct{}

// Place gives one embedded Redis per node, and no outside clock.
func (Servers) Place(_ *scenario.Scenario, nodes []string, seed int64) ([]sim.Backend, sim.Pacer, error) {
	out := make([]sim.Backend, len(nodes))
	for i := range nodes {
		out[i] = New(seed)
	}
	return out, nil, nil
}
