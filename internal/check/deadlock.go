package check

import (
	"fmt"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// deadlockRule: a lock must not outlive its owner. When the run ends with a
// lock key still holding the value of a client that crashed (and did not
// restart), while another, live client kept finding it taken after the
// crash, the lock blocked everyone to the horizon: a deadlock.
//
// A live owner can deadlock too, on itself: a client that asks again for a
// lock it holds (the request marks "reenter") and is still waiting when the
// run ends, holding the lock, waits for itself for ever — the lock is not
// re-entrant (seed 004's MySQL lock).
type deadlockRule struct {
	held    holders
	reenter map[string]int            // client -> seq of a nested acquire not yet granted
	crashed map[string]int            // client -> seq of its crash
	blocked map[string]*deadlockBlock // node/key -> the attempts it blocked after its owner's crash
}

type deadlockBlock struct {
	client      string
	first, last int
	n           int
}

func newDeadlockRule() *deadlockRule {
	return &deadlockRule{held: holders{}, reenter: map[string]int{}, crashed: map[string]int{}, blocked: map[string]*deadlockBlock{}}
}

func (r *deadlockRule) observe(e *sim.Event) []sim.Event {
	if e.Kind == sim.KindFault && e.Client != "" {
		switch e.Name {
		case string(sim.FaultCrash):
			r.crashed[e.Client] = e.Seq
		case string(sim.FaultRestart):
			delete(r.crashed, e.Client)
		}
		delete(r.reenter, e.Client)
	}
	if e.Kind == sim.KindMark {
		switch e.Name {
		case "reenter":
			r.reenter[e.Client] = e.Seq
		case "acquired", "gave-up":
			delete(r.reenter, e.Client)
		}
	}
	r.held.observe(e)
	for _, k := range blockedBy(e) {
		if _, dead := r.crashed[k.Owner]; !dead {
			continue
		}
		if _, dead := r.crashed[e.Client]; dead {
			continue
		}
		id := e.Node + "/" + k.Key
		b := r.blocked[id]
		if b == nil {
			b = &deadlockBlock{client: e.Client, first: e.Seq}
			r.blocked[id] = b
		}
		b.last = e.Seq
		b.n++
	}
	return nil
}

func (r *deadlockRule) finish() []sim.Event {
	var out []sim.Event
	for _, h := range r.held.sorted() {
		if asked, ok := r.reenter[h.owner]; ok && asked > h.since {
			out = append(out, verdict(Deadlock, []int{h.since, asked},
				fmt.Sprintf("%s took %s at #%d and, still holding it, asked for it again at #%d. The lock does not know its owner: %s waited for itself until the run ended.",
					h.owner, h.name, h.since, asked, h.owner),
				fmt.Sprintf("%s 在 #%d 拿到 %s，在仍持有它的情况下于 #%d 再次请求这把锁。这把锁不认识自己的持有者：%s 一直在等它自己，直到观察结束：死锁。",
					h.owner, h.since, h.name, asked, h.owner)))
			continue
		}
		crash, dead := r.crashed[h.owner]
		b := r.blocked[h.key]
		if !dead || b == nil || b.first < crash {
			continue
		}
		life, shou := "has no expiry", "没有过期时间"
		if h.state.TTL >= 0 {
			d := sim.FormatTime(time.Duration(h.state.TTL) * time.Millisecond)
			life, shou = "would live another "+d, "还要再过 "+d+" 才会过期"
		}
		out = append(out, verdict(Deadlock, []int{h.since, crash, b.first, b.last},
			fmt.Sprintf("%s took %s at #%d and crashed at #%d without releasing it. The lock %s: %s found it taken %d times (#%d to #%d) and was still shut out when the run ended.",
				h.owner, h.name, h.since, crash, life, b.client, b.n, b.first, b.last),
			fmt.Sprintf("%s 在 #%d 拿到 %s，在 #%d 崩溃，没有释放。这把锁%s：%s 从 #%d 到 #%d 共 %d 次发现锁被占用，直到观察结束仍进不去：死锁。",
				h.owner, h.since, h.name, crash, shou, b.client, b.first, b.last, b.n)))
	}
	return out
}
