package lesson

import (
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Servers puts a run's nodes somewhere: embedded Redis (embedded.Servers)
// or real redis-server processes (package realredis). The caller of New
// chooses.
type Servers interface {
	// Place gives one backend per node of the scenario, in the order of
	// nodes, and the clock the run must follow (nil: the engine's own
	// virtual clock; real servers: theirs). seed is the run's. The world
	// closes the backends when it closes.
	Place(sc *scenario.Scenario, nodes []string, seed int64) ([]sim.Backend, sim.Pacer, error)
}
