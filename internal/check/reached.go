package check

import "github.com/lockstep/lockstep/internal/sim"

// earner is a rule whose verdicts of the horizon rest on what the run has
// already done, which nothing later undoes: it can give them before the
// horizon. The stock's rule is one (an oversell or a lost update rests on
// writes already done; a later oversell may still take a lost update's
// place at the horizon). A deadlock or a starvation is only known at the
// horizon, and the verdicts a rule reports as they happen are in the log
// already, so no other rule is one.
type earner interface {
	earned(m *model) []claimed
}

// earned is the stock's verdict of the horizon, as it stands now.
func (r *stockRule) earned(m *model) []claimed { return r.finish(m) }

// Reached gives the verdicts of the horizon that the run has already
// earned, without finishing the checker. A challenge uses it to tell the
// moment its goal is reached.
func (c *Checker) Reached() []sim.Event {
	if c.finished {
		return nil
	}
	var out []sim.Event
	for _, r := range c.rules {
		if e, ok := r.(earner); ok {
			for _, v := range e.earned(c.model) {
				out = append(out, v.ev)
			}
		}
	}
	return out
}
