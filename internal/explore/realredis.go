package explore

import (
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// unavailableOnReal are the fault kinds a real redis-server cannot be
// made to suffer on request: its backend refuses them
// (realredis.Backend.JumpClock gives sim.ErrUnavailable) and the run
// shows the fault as not applied, then goes on without it.
var unavailableOnReal = []string{string(sim.FaultClockJump)}

// onRealRedis is how a recording ends on real redis-server processes when
// it holds a fault a real server cannot apply (unavailableOnReal): the
// verdicts of the same recording without those faults, as its
// real_redis declaration, and why. nil when it holds none, or when the
// run ends the same without them.
func onRealRedis(p *pacer, rec *scenario.Scenario) (*scenario.RealRedis, error) {
	out := *rec
	out.Faults = slices.DeleteFunc(slices.Clone(rec.Faults), func(f scenario.Fault) bool { return slices.Contains(unavailableOnReal, f.Do) })
	out.Schedule = slices.DeleteFunc(slices.Clone(rec.Schedule), func(a scenario.Action) bool { return slices.Contains(unavailableOnReal, a.Do) })
	if len(out.Faults) == len(rec.Faults) && len(out.Schedule) == len(rec.Schedule) {
		return nil, nil
	}
	sess, err := replay(p, &out)
	if err != nil {
		return nil, err
	}
	got := append([]string(nil), sess.Run().Verdicts()...)
	sess.Close()
	if lesson.SameVerdicts(got, rec.Expect) {
		return nil, nil
	}
	v := strings.Join(got, ", ")
	return &scenario.RealRedis{Expect: got, Why: fact.Say("explore.real-redis.clock-not-moved", v)}, nil
}
