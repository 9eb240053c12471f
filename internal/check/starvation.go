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

// starvationRule: a live thread that keeps trying must eventually get the
// lock. A thread whose attempts found the lock held by others from its
// first try to the end of the run — at least StarveAfter, never acquiring,
// never giving up, never crashing — starved, unless the lock is stuck for
// ever (the deadlock rule's business).
type starvationRule struct {
	dl      *deadlockRule
	waiting map[thread]*waiter
	lastT   time.Duration
}

type waiter struct {
	th          thread
	slot        *slot
	first, last int
	firstT      time.Duration
	n           int
}

func newStarvationRule(dl *deadlockRule) *starvationRule {
	return &starvationRule{dl: dl, waiting: map[thread]*waiter{}}
}

func (r *starvationRule) observe(e *sim.Event, chs []change, m *model) []sim.Event {
	r.lastT = e.T
	switch {
	case e.Kind == sim.KindMark && (e.Name == sim.MarkAcquired || e.Name == sim.MarkGaveUp), e.Kind == sim.KindDone:
		delete(r.waiting, m.threadOf(e))
	case e.Kind == sim.KindExec && e.Client != "":
		t := m.threadOf(e)
		for _, ch := range chs {
			if !refused(t, ch.slot, m) {
				continue
			}
			w := r.waiting[t]
			if w == nil {
				w = &waiter{th: t, slot: ch.slot, first: e.Seq, firstT: e.T}
				r.waiting[t] = w
			}
			if ch.slot.lock == w.slot.lock {
				w.slot, w.last = ch.slot, e.Seq
				w.n++
			}
		}
	}
	return nil
}

// refused reports whether a thread found lock key s held by others: it
// exists and has holders, none of them of the thread's incarnation.
func refused(t thread, s *slot, m *model) bool {
	if !m.locks[s.lock] || !s.present() || len(s.holders) == 0 {
		return false
	}
	for _, h := range s.holders {
		if h.th.client == t.client && h.th.inc == t.inc {
			return false
		}
	}
	return true
}

func (r *starvationRule) finish(m *model) []sim.Event {
	ws := make([]*waiter, 0, len(r.waiting))
	for _, w := range r.waiting {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].first < ws[j].first })
	var out []sim.Event
	for _, w := range ws {
		waited := r.lastT - w.firstT
		if !m.alive(w.th) || waited < StarveAfter || r.dl.stuck[w.slot.lock] {
			continue
		}
		refs := []int{w.first, w.last}
		name := w.slot.key
		en := fmt.Sprintf("%s asked for %s %d times from #%d to #%d (%s) and never got it.", w.th.who(), name, w.n, w.first, w.last, sim.FormatTime(waited))
		zh := fmt.Sprintf("%s 从 #%d 到 #%d 共 %d 次申请 %s（%s），始终没有拿到。", w.th.who(), w.first, w.last, w.n, name, sim.FormatTime(waited))
		if w.slot.present() && len(w.slot.holders) > 0 {
			h := w.slot.holders[0]
			for _, o := range w.slot.holders {
				if o.since < h.since {
					h = o
				}
			}
			refs = append(refs, h.since)
			en += fmt.Sprintf(" %s has held it since #%d and never let go.", h.th.who(), h.since)
			zh += fmt.Sprintf("%s 自 #%d 起一直占着这把锁不放：饥饿。", h.th.who(), h.since)
		} else {
			en += " The lock was free at times, but never when it asked."
			zh += "锁有时是空闲的，但每次它来申请时都恰好被别人占着：饥饿。"
		}
		out = append(out, verdict(Starvation, refs, en, zh))
	}
	return out
}
