package check

import "github.com/lockstep/lockstep/internal/sim"

// Reached gives the verdicts of the horizon that the run has already
// earned, without finishing the checker: an oversell or a lost update of
// the stock. Each rests on writes already done, which nothing later undoes
// (a later oversell may still take a lost update's place at the horizon).
// A deadlock or a starvation is only known at the horizon, and the
// verdicts the checker reports as they happen are in the log already, so
// neither is among them. A challenge uses it to tell the moment its goal
// is reached.
func (c *Checker) Reached() []sim.Event {
	if c.finished {
		return nil
	}
	for _, r := range c.rules {
		if s, ok := r.(*stockRule); ok {
			return s.finish(c.model)
		}
	}
	return nil
}
