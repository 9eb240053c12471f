package check

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/sim"
)

// mutexRule: no two clients inside the critical section at once. Clients
// report "enter" and "leave" marks; a crash or the end of a client's main
// thread takes it out.
type mutexRule struct {
	inside []entry // in order of entry
}

type entry struct {
	client string
	seq    int
}

func (r *mutexRule) observe(e *sim.Event) []sim.Event {
	switch {
	case e.Kind == sim.KindMark && e.Name == "enter":
		var out []sim.Event
		for _, in := range r.inside {
			if in.client != e.Client {
				out = append(out, verdict(MutualExclusion, []int{in.seq, e.Seq},
					fmt.Sprintf("%s entered the critical section (#%d) while %s, who entered at #%d, was still inside.", e.Client, e.Seq, in.client, in.seq),
					fmt.Sprintf("%s 进入临界区（#%d）时，%s（#%d 进入）仍在临界区内：互斥被打破。", e.Client, e.Seq, in.client, in.seq)))
				break
			}
		}
		r.inside = append(r.inside, entry{e.Client, e.Seq})
		return out
	case e.Kind == sim.KindMark && e.Name == "leave",
		e.Kind == sim.KindFault && e.Name == string(sim.FaultCrash),
		e.Kind == sim.KindDone && e.Thread == "main":
		for i, in := range r.inside {
			if in.client == e.Client {
				r.inside = append(r.inside[:i], r.inside[i+1:]...)
				break
			}
		}
	}
	return nil
}

func (r *mutexRule) finish() []sim.Event { return nil }
