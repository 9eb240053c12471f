package check

import (
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
			fact.Say("check.entered-critical-section-while-who", t.who(), e.Lock, fact.Seq(e.Seq), in.th.who(), fact.Seq(in.seq)).En,
			fact.Say("check.entered-critical-section-while-who", t.who(), e.Lock, fact.Seq(e.Seq), in.th.who(), fact.Seq(in.seq)).Zh,
			t.claim(ClaimEnter, Claim{At: e.Seq, Lock: e.Lock}),
			in.th.claim(ClaimEnter, Claim{At: in.seq, Lock: e.Lock}),
			in.th.claim(ClaimInside, Claim{At: in.seq, Until: e.Seq, Lock: e.Lock}))}
	}
	return nil
}

func (mutexRule) finish(*model) []claimed { return nil }
