package check

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// mutexRule: no two threads inside the critical section of one lock at
// once. Two threads of one process are two; locks on other keys are other
// critical sections. The model keeps who is inside which lock (enter and
// leave marks, crashes, threads that end with an error).
type mutexRule struct{}

func (mutexRule) observe(e *sim.Event, _ []change, m *model) []claimed {
	if e.Kind != sim.KindMark || e.Name != "enter" {
		return nil
	}
	t := m.threadOf(e)
	for _, in := range m.inside[e.Lock] {
		if in.th == t {
			continue
		}
		return []claimed{verdict(MutualExclusion, []int{in.seq, e.Seq},
			fmt.Sprintf("%s entered the critical section of %s (#%d) while %s, who entered at #%d, was still inside.", t.who(), e.Lock, fact.Seq(e.Seq), in.th.who(), fact.Seq(in.seq)),
			fmt.Sprintf("%s 进入 %s 的临界区（#%d）时，%s（#%d 进入）仍在临界区内：互斥被打破。", t.who(), e.Lock, fact.Seq(e.Seq), in.th.who(), fact.Seq(in.seq)),
			t.claim(ClaimEnter, Claim{At: e.Seq, Lock: e.Lock}),
			in.th.claim(ClaimEnter, Claim{At: in.seq, Lock: e.Lock}),
			in.th.claim(ClaimInside, Claim{At: in.seq, Until: e.Seq, Lock: e.Lock}))}
	}
	return nil
}

func (mutexRule) finish(*model) []claimed { return nil }
