package lesson

import (
	"errors"
	"fmt"
	"strings"

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
// an error (sim.World.Lost), and so is a run that reached the step cap
// (ErrStepCap, with the verdicts of the steps it ran).
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
	if w := s.Run().World; w.Capped() {
		return s.Run().Verdicts(), fmt.Errorf("%w: %d steps at %s; its verdicts (%s) cover those steps only",
			ErrStepCap, w.Steps(), w.Now(), strings.Join(s.Run().Verdicts(), ", "))
	}
	return s.Run().Verdicts(), nil
}

// ErrStepCap is VerdictsOn's error for a run that reached the step cap
// before it ended: it still gives the verdicts of the steps it ran.
var ErrStepCap = errors.New("the run reached the step cap before it ended")
