package check

import (
	"fmt"
	"sort"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// StarveAfter is how long a live client may keep finding a lock taken,
// without ever getting it, before the checker calls it starved.
const StarveAfter = 10 * time.Second

// starvationRule: a live client that keeps trying must eventually get the
// lock. A thread whose attempts found the lock held by others from its
// first try to the end of the run — at least StarveAfter, never acquiring,
// never giving up, never crashing — starved. When the holder at the end
// crashed, that is the deadlock rule's business, not this one's.
type starvationRule struct {
	held    holders
	crashed map[string]bool
	waiting map[string]*waiter // client/thread -> its unanswered attempts
	lastT   time.Duration
}

type waiter struct {
	who, client string
	key, name   string
	first, last int
	firstT      time.Duration
	n           int
}

func newStarvationRule() *starvationRule {
	return &starvationRule{held: holders{}, crashed: map[string]bool{}, waiting: map[string]*waiter{}}
}

func (r *starvationRule) observe(e *sim.Event) []sim.Event {
	r.lastT = e.T
	who := e.Client + "/" + e.Thread
	switch {
	case e.Kind == sim.KindFault && e.Name == string(sim.FaultCrash) && e.Client != "":
		r.crashed[e.Client] = true
		for k, w := range r.waiting {
			if w.client == e.Client {
				delete(r.waiting, k)
			}
		}
	case e.Kind == sim.KindFault && e.Name == string(sim.FaultRestart):
		delete(r.crashed, e.Client)
	case e.Kind == sim.KindMark && (e.Name == "acquired" || e.Name == "gave-up"),
		e.Kind == sim.KindDone:
		delete(r.waiting, who)
	}
	r.held.observe(e)
	for _, k := range blockedBy(e) {
		w := r.waiting[who]
		if w == nil {
			w = &waiter{who: e.Who(), client: e.Client, key: e.Node + "/" + k.Key, name: k.Key, first: e.Seq, firstT: e.T}
			r.waiting[who] = w
		}
		w.last = e.Seq
		w.n++
	}
	return nil
}

func (r *starvationRule) finish() []sim.Event {
	ws := make([]*waiter, 0, len(r.waiting))
	for _, w := range r.waiting {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].first < ws[j].first })
	var out []sim.Event
	for _, w := range ws {
		waited := r.lastT - w.firstT
		if r.crashed[w.client] || waited < StarveAfter {
			continue
		}
		h := r.held[w.key]
		if h != nil && r.crashed[h.owner] {
			continue
		}
		refs := []int{w.first, w.last}
		en := fmt.Sprintf("%s asked for %s %d times from #%d to #%d (%s) and never got it.", w.who, w.name, w.n, w.first, w.last, sim.FormatTime(waited))
		zh := fmt.Sprintf("%s 从 #%d 到 #%d 共 %d 次申请 %s（%s），始终没有拿到。", w.who, w.first, w.last, w.n, w.name, sim.FormatTime(waited))
		if h != nil {
			refs = append(refs, h.since)
			en += fmt.Sprintf(" %s, alive, has held it since #%d and never let go.", h.owner, h.since)
			zh += fmt.Sprintf("%s 还活着，自 #%d 起一直占着这把锁不放：饥饿。", h.owner, h.since)
		} else {
			en += " The lock was free at times, but never when it asked."
			zh += "锁有时是空闲的，但每次它来申请时都恰好被别人占着：饥饿。"
		}
		sort.Ints(refs)
		out = append(out, verdict(Starvation, refs, en, zh))
	}
	return out
}
