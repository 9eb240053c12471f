package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// deadlockRule: at the horizon no lock may be stuck for ever. A lock key
// is stuck when it exists, will never expire (no TTL), has holders, none of
// them can ever release it — each is dead (its client crashed, or
// restarted as a new incarnation), ended with an error, finished its
// program, does not know it holds the key (it never believed it did, and
// the reply of the command that gave it the key was lost), or waits for
// itself (since it came to hold the key it has written to it, and every
// such write left it as it was: it asks again for a lock it holds, which is
// not re-entrant) — and no live client will free it by its algorithm's own
// recovery (Options.Recoverers). A lease that outlives the horizon is no
// deadlock: it will expire.
type deadlockRule struct {
	reenter map[thread]map[string]int // thread -> lock -> seq of its latest reenter mark
	asks    map[thread]map[*slot]*asking
	stuck   map[string]bool // locks with a key stuck for ever
}

// asking is what a holder's own writes did to a key it holds: since it
// came to hold it (since), the first write, how many, and whether any
// changed the key.
type asking struct {
	since, first, n int
	moved           bool
}

func newDeadlockRule() *deadlockRule {
	return &deadlockRule{reenter: map[thread]map[string]int{}, asks: map[thread]map[*slot]*asking{}, stuck: map[string]bool{}}
}

func (r *deadlockRule) observe(e *sim.Event, chs []change, m *model) []sim.Event {
	switch {
	case e.Kind == sim.KindMark && e.Name == sim.MarkReenter:
		t := m.threadOf(e)
		if r.reenter[t] == nil {
			r.reenter[t] = map[string]int{}
		}
		r.reenter[t][e.Lock] = e.Seq
	case e.Kind == sim.KindExec && e.Client != "" && sim.Writes(e.Cmd):
		t := m.threadOf(e)
		for _, ch := range chs {
			i := slices.IndexFunc(ch.before, func(h holder) bool { return h.th == t })
			if i < 0 {
				continue
			}
			if r.asks[t] == nil {
				r.asks[t] = map[*slot]*asking{}
			}
			a := r.asks[t][ch.slot]
			if a == nil || a.since != ch.before[i].since {
				a = &asking{since: ch.before[i].since, first: e.Seq}
				r.asks[t][ch.slot] = a
			}
			a.n++
			a.moved = a.moved || ch.moved
		}
	}
	return nil
}

func (r *deadlockRule) finish(m *model) []sim.Event {
	var out []sim.Event
	for _, s := range m.slots() {
		if !m.locks[s.lock] || !s.present() || !m.serving(s.node) || s.state.TTL != -1 || len(s.holders) == 0 || m.recovered(s) {
			continue
		}
		var refs []int
		var en, zh []string
		for _, h := range s.holders {
			why, e, z := r.cannotRelease(h, s, m)
			if why == 0 {
				refs = nil
				break
			}
			refs = append(refs, h.since, why)
			en = append(en, fmt.Sprintf("%s took it at #%d and %s", h.th.who(), h.since, e))
			zh = append(zh, fmt.Sprintf("%s 在 #%d 拿到它，%s", h.th.who(), h.since, z))
		}
		if refs == nil {
			continue
		}
		r.stuck[s.lock] = true
		out = append(out, verdict(Deadlock, refs,
			fmt.Sprintf("%s on %s has no expiry and nobody who can release it: %s. It stays locked for ever.", s.key, s.node, strings.Join(en, "; ")),
			fmt.Sprintf("%s 上的 %s 没有过期时间，也没有任何能释放它的人：%s。这把锁永远不会再打开：死锁。", s.node, s.key, strings.Join(zh, "；"))))
	}
	return out
}

// cannotRelease gives the event that shows why holder h can never release
// key s, with the reason in both languages; 0 when it still can.
func (r *deadlockRule) cannotRelease(h holder, s *slot, m *model) (int, string, string) {
	t, l := h.th, s.lock
	if t.inc != m.inc[t.client] {
		at := m.crashes[t.client][t.inc]
		return at, fmt.Sprintf("crashed at #%d without releasing it", at), fmt.Sprintf("在 #%d 崩溃，没有释放", at)
	}
	if at, ok := m.ended[t]; ok {
		return at, fmt.Sprintf("ended with an error at #%d", at), fmt.Sprintf("在 #%d 出错结束", at)
	}
	if at, ok := m.finished[t]; ok {
		// requests run in turn on main: its end is the program's
		return at, fmt.Sprintf("finished its program at #%d without releasing it", at), fmt.Sprintf("在 #%d 运行结束，没有释放", at)
	}
	if at, lost := m.unanswered[h.req]; lost && !m.believes(t, l) {
		what, zhWhat := "was lost", "丢了"
		if m.timedOut[h.req] {
			what, zhWhat = "never came in time (the request timed out)", "没有按时到达（请求超时）"
		}
		return at, fmt.Sprintf("never learnt it: the reply %s (#%d)", what, at), fmt.Sprintf("却不知道：回复%s（#%d）", zhWhat, at)
	}
	if a := r.asks[t][s]; a != nil && a.since == h.since && a.n > 0 && !a.moved {
		at := a.first
		if re := r.reenter[t][l]; re > h.since {
			at = re
		}
		return at, fmt.Sprintf("asked for it again at #%d while holding it: none of its %d writes to the key since #%d changed it, it waits for itself (the lock is not re-entrant)", at, a.n, h.since),
			fmt.Sprintf("在持有它的同时于 #%d 又申请了一次：自 #%d 起它对这个键的 %d 次写入都没有改变它，它在等它自己（这把锁不可重入）", at, h.since, a.n)
	}
	return 0, "", ""
}
