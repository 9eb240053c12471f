package check

import (
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// unlockRule: a client's command never removes a lock that another thread
// holds and still believes it holds. The victim must be alive: a crashed
// holder's lock, cleared by the algorithm's own recovery, is no foreign
// unlock. A takeover that rewrites the key (GETSET) is the lock's own
// rule at work, judged by mutual exclusion if the old holder still enters.
// Expiry is no command and does not count.
type unlockRule struct{}

func (unlockRule) observe(e *sim.Event, chs []change, m *model) []claimed {
	var out []claimed
	for _, ch := range chs {
		if !ch.removed || !m.locks[ch.slot.lock] {
			continue
		}
		for _, h := range ch.before {
			if h.th == ch.by || !m.alive(h.th) || !m.believes(h.th, ch.slot.lock) {
				continue
			}
			k, by, cmd := ch.slot.key, ch.by.who(), e.Cmd[0]
			out = append(out, verdict(ForeignUnlock, []int{h.since, e.Seq},
				fact.Say("check.removed-on-which-had-taken", by, cmd, fact.Seq(e.Seq), k, e.Node, h.th.who(), fact.Seq(h.since), h.th.who(), by).En,
				fact.Say("check.removed-on-which-had-taken", by, cmd, fact.Seq(e.Seq), k, e.Node, h.th.who(), fact.Seq(h.since), h.th.who(), by).Zh,
				ch.by.claim(ClaimRemoved, Claim{At: e.Seq, Node: e.Node, Key: k}),
				h.th.claim(ClaimHeld, Claim{At: h.since, Until: e.Seq, Node: e.Node, Key: k}),
				h.th.claim(ClaimBelieved, Claim{Until: e.Seq, Lock: ch.slot.lock, N: 1})))
			break
		}
	}
	return out
}

func (unlockRule) finish(*model) []claimed { return nil }
