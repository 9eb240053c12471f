package check

import (
	"slices"
	"sort"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
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
	starved bool // a starvation was reported at the horizon
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

func (r *starvationRule) observe(e *sim.Event, chs []change, m *model) []claimed {
	r.lastT = e.T
	switch {
	case e.Kind == sim.KindMark && (e.Name == sim.MarkAcquired || e.Name == sim.MarkGaveUp), e.Kind == sim.KindDone:
		delete(r.waiting, m.threadOf(e))
	case e.Kind == sim.KindExec && e.Client != "":
		t := m.threadOf(e)
		for _, ch := range chs {
			if m.locks[ch.slot.lock] && came(t, ch) {
				// it got the key (whether or not it learnt it): its wait
				// is over
				delete(r.waiting, t)
			}
		}
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

// came reports whether thread t came to hold a key with change ch.
func came(t thread, ch change) bool {
	has := func(hs []holder) bool { return slices.ContainsFunc(hs, func(h holder) bool { return h.th == t }) }
	return has(ch.slot.holders) && !has(ch.before)
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

func (r *starvationRule) finish(m *model) []claimed {
	ws := make([]*waiter, 0, len(r.waiting))
	for _, w := range r.waiting {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].first < ws[j].first })
	var out []claimed
	for _, w := range ws {
		waited := r.lastT - w.firstT
		if !m.alive(w.th) || waited < StarveAfter || r.dl.stuck[w.slot.lock] {
			continue
		}
		refs := []int{w.first, w.last}
		name := w.slot.key
		claims := []Claim{w.th.claim(ClaimRefused, Claim{At: w.first, Until: w.last, Key: name, N: int64(w.n)})}
		en := fact.Say("check.asked-for-times-from-each", w.th.who(), name, w.n, fact.Seq(w.first), fact.Seq(w.last), sim.FormatTime(waited)).En
		zh := fact.Say("check.asked-for-times-from-each", w.th.who(), name, w.n, fact.Seq(w.first), fact.Seq(w.last), sim.FormatTime(waited)).Zh
		if w.slot.present() && len(w.slot.holders) > 0 {
			h := w.slot.holders[0]
			for _, o := range w.slot.holders {
				if o.since < h.since {
					h = o
				}
			}
			refs = append(refs, h.since)
			claims = append(claims, h.th.claim(ClaimHeld, Claim{At: h.since, Node: w.slot.node, Key: name}))
			en += fact.Say("check.end-holds-on-since", h.th.who(), w.slot.node, fact.Seq(h.since)).En
			zh += fact.Say("check.end-holds-on-since", h.th.who(), w.slot.node, fact.Seq(h.since)).Zh
		} else {
			claims = append(claims, Claim{Kind: ClaimFree, Node: w.slot.node, Key: name})
			en += fact.Say("check.end-nobody-holds-on", w.slot.node).En
			zh += fact.Say("check.end-nobody-holds-on", w.slot.node).Zh
		}
		out = append(out, verdict(Starvation, refs, en, zh, claims...))
	}
	r.starved = len(out) > 0
	return out
}
