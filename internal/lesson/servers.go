package lesson

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Servers puts a run's nodes somewhere other than embedded Redis (real
// redis-server processes, package realredis). A nil Servers means embedded
// Redis.
type Servers interface {
	// Place gives one backend per node of the scenario, in the order of
	// nodes, and the clock the run must follow (the servers' own). The
	// world closes the backends when it closes.
	Place(sc *scenario.Scenario, nodes []string) ([]sim.Backend, sim.Pacer, error)
}

// BuildOn makes the world for a scenario and seed with its nodes placed by
// servers (nil: embedded Redis), ready to step.
func BuildOn(sc *scenario.Scenario, seed int64, servers Servers) (*Run, error) {
	if servers == nil {
		return Build(sc, seed)
	}
	nodes := NodeNames(sc)
	backends, clock, err := servers.Place(sc, nodes)
	if err != nil {
		return nil, err
	}
	if len(backends) != len(nodes) {
		for _, b := range backends {
			b.Close()
		}
		return nil, fmt.Errorf("scenario %s: %d nodes, %d servers placed", sc.ID, len(nodes), len(backends))
	}
	return build(sc, seed, sim.Config{Pace: clock}, backends)
}

// VerdictsOn runs a scenario to its end on servers and returns its
// verdicts; a run cut short because a real server stopped answering is
// an error (sim.World.Lost).
//
// A recorded schedule is replayed, as in Replay.
func VerdictsOn(sc *scenario.Scenario, seed int64, servers Servers) ([]string, error) {
	s, err := Replay(sc, seed, servers)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := s.Run().World.Lost(); err != nil {
		return nil, fmt.Errorf("the run stopped at step %d: %w", s.Cursor(), err)
	}
	return s.Run().Verdicts(), nil
}
