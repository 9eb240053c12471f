package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// expect checks the verdicts a scenario says it ends with. expect: is
// optional (run, compare and the page ask the checker what the verdict
// is); visualizer test, which compares, refuses a scenario without it.
func (c *validator) expect(s *Scenario, p string) {
	if !c.flat && c.has(p+".expect") && len(s.Expect) == 0 {
		c.at(p+".expect", fact.Say("scenario.expect-lists-nothing"))
		return
	}
	c.verdicts(s.Expect, p+".expect")
	if r := s.RealRedis; r != nil {
		if len(r.Expect) == 0 {
			c.at(p+".real_redis.expect", fact.Say("scenario.real-redis-needs-expect-the"))
		}
		c.verdicts(r.Expect, p+".real_redis.expect")
		if strings.TrimSpace(r.Why.En) == "" {
			c.at(p+".real_redis.why", fact.Say("scenario.real-redis-needs-why-with"))
		}
	}
}

// verdicts checks a list of expected verdicts at path p.
func (c *validator) verdicts(list []string, p string) {
	seen := map[string]bool{}
	for i, v := range list {
		ep := fmt.Sprintf("%s[%d]", p, i)
		switch {
		case !slices.Contains(sim.Verdicts, v):
			c.unknownName(ep, "verdict", v, sim.Verdicts)
		case seen[v]:
			c.at(ep, fact.Say("scenario.verdict-is-listed-twice", v))
		case v == sim.VerdictSafe && len(list) > 1:
			c.at(ep, fact.Say("scenario.safe-means-no-violation-at"))
		}
		seen[v] = true
	}
}
