package scenario

import (
	"fmt"
	"slices"
	"strings"
)

// explore checks a search's budget and bounds.
func (c *validator) explore(s *Scenario, p string, sc *scope) {
	e := s.Explore
	if e == nil {
		return
	}
	ep := p + ".explore"
	if e.Steps < 0 {
		c.at(ep+".steps", "steps cannot be negative, got %d", e.Steps)
	}
	if e.Steps > MaxSteps {
		c.at(ep+".steps", "steps %d is over the limit of %d engine steps a schedule", e.Steps, MaxSteps)
	}
	if e.Horizon.D() > MaxHorizon {
		c.at(ep+".horizon", "horizon %s is longer than the limit of %s", fmtDuration(e.Horizon.D()), fmtDuration(MaxHorizon))
	}
	if len(e.Faults) > MaxFaults {
		c.at(ep+".faults", "%d budget entries; the limit is %d", len(e.Faults), MaxFaults)
		return
	}
	for i, b := range e.Faults {
		bp := fmt.Sprintf("%s.faults[%d]", ep, i)
		if !slices.Contains(ExploreFaults, b.Do) {
			if b.Do == "" {
				c.at(bp+".do", "a budget entry needs do: one of %s", strings.Join(ExploreFaults, ", "))
			} else {
				c.unknownName(bp+".do", "fault a search can place", b.Do, ExploreFaults)
			}
			continue
		}
		if b.Count < 0 || b.Count > MaxFaults {
			c.at(bp+".count", "count must be between 0 and %d, got %d", MaxFaults, b.Count)
		}
		needMax := b.Do == "pause" || b.Do == "clock-jump"
		mayMax := b.Do == "node-crash" || b.Do == "partition" // without one it lasts
		switch {
		case needMax && b.Max <= 0:
			c.at(bp, "%s needs max: the longest it may be, such as 5s", b.Do)
		case !needMax && !mayMax && b.Max != 0:
			c.at(bp+".max", "%s takes no max", b.Do)
		}
		node := b.Do == "node-crash" || b.Do == "clock-jump" || b.Do == "failover"
		if b.Client != "" && node {
			c.at(bp+".client", "%s hits a node, not a client", b.Do)
		} else if b.Client != "" && !slices.Contains(sc.clients, b.Client) {
			c.undeclared(bp+".client", "client", b.Client, sc.clients)
		}
		if b.Node != "" && !slices.Contains(sc.nodes, b.Node) {
			c.undeclared(bp+".node", "node", b.Node, sc.nodes)
		}
	}
}
