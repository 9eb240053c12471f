package check

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/sim"
)

// mutexRule: no two holders inside the critical section at once. A holder
// is a client's thread (two threads of one process are two holders).
// Threads report "enter" and "leave" marks; a crash takes every thread of
// its process out, and a thread that ends with an error leaves. A thread
// that ends normally without a "leave" (a request that keeps its lock for a
// later callback) is still inside.
type mutexRule struct {
	inside []entry // in order of entry
}

type entry struct {
	client, thread, who string
	seq                 int
}

func (r *mutexRule) observe(e *sim.Event) []sim.Event {
	switch {
	case e.Kind == sim.KindMark && e.Name == "enter":
		var out []sim.Event
		for _, in := range r.inside {
			if in.client != e.Client || in.thread != e.Thread {
				out = append(out, verdict(MutualExclusion, []int{in.seq, e.Seq},
					fmt.Sprintf("%s entered the critical section (#%d) while %s, who entered at #%d, was still inside.", e.Who(), e.Seq, in.who, in.seq),
					fmt.Sprintf("%s 进入临界区（#%d）时，%s（#%d 进入）仍在临界区内：互斥被打破。", e.Who(), e.Seq, in.who, in.seq)))
				break
			}
		}
		r.inside = append(r.inside, entry{e.Client, e.Thread, e.Who(), e.Seq})
		return out
	case e.Kind == sim.KindMark && e.Name == "leave",
		e.Kind == sim.KindDone && (e.Note != "" || e.Thread == "main"):
		r.remove(func(in entry) bool { return in.client == e.Client && in.thread == e.Thread })
	case e.Kind == sim.KindFault && e.Name == string(sim.FaultCrash):
		r.remove(func(in entry) bool { return in.client == e.Client })
	}
	return nil
}

// remove takes out every entry that matches.
func (r *mutexRule) remove(match func(entry) bool) {
	keep := r.inside[:0]
	for _, in := range r.inside {
		if !match(in) {
			keep = append(keep, in)
		}
	}
	r.inside = keep
}

func (r *mutexRule) finish() []sim.Event { return nil }
