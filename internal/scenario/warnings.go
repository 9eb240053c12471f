package scenario

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// Warnings lists what a valid file says that its run would do otherwise
// than written, each at its line and column, in both languages (Msg, Zh):
// a TTL the algorithm's commands round to whole seconds, a client whose
// writes a fenced storage will refuse for want of a fencing token. A file
// with problems gives its problems (Check) and no warnings: it does not
// run at all.
func Warnings(name string, data []byte) []*Error {
	f, d, errs := decodeFile(name, data, MaxFileSize)
	if len(errs) > 0 || f == nil {
		return nil
	}
	d.r = &report{file: name}
	c := &validator{d: d}
	for i := range f.Scenarios {
		s := &f.Scenarios[i]
		for j := range s.Clients {
			c.warnClient(s, &s.Clients[j], fmt.Sprintf("scenarios[%d].clients[%d]", i, j))
		}
	}
	return d.r.sorted()
}

// warnClient notes what client cl of scenario s would run otherwise than
// written.
func (c *validator) warnClient(s *Scenario, cl *Client, cp string) {
	algo, ok := lock.Lookup(cl.Algorithm)
	if !ok {
		return
	}
	opts, err := algo.Decode(cl.Params)
	if err != nil {
		return
	}
	if written, runs, ok := lock.RoundedTTL(opts); ok {
		c.at(cp+".params.ttl", fact.Say("scenario.ttl-runs-as-sets-its",
			sim.FormatTime(written), sim.FormatTime(runs), algo.ID))
	}
	if cl.Task == TaskWrite && s.Storage != nil && s.Storage.Fencing && !algo.Fencing {
		c.at(cp+".task", fact.Say("scenario.fenced-storage-no-token",
			algo.ID, cl.Name))
	}
}
