package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// deadlockRule: at the horizon no lock may be stuck for ever. A lock key
// is stuck when it exists, will never expire (no TTL), has holders, and
// none of them can ever release it: each is dead (its client crashed, or
// restarted as a new incarnation), ended with an error, does not know it
// holds the key (it never believed it did, and the reply of the command
// that gave it the key was lost), or waits for itself (it holds the lock,
// asked for it again, and every attempt since left the key as it was: a
// lock that is not re-entrant). A lease that outlives the horizon is no
// deadlock: it will expire.
type deadlockRule struct {
	reenter map[thread]map[string]*reentry
	stuck   map[string]bool // locks with a key stuck for ever
}

// reentry is a thread's pending nested acquire of a lock it holds.
type reentry struct {
	seq      int
	attempts int
	granted  bool
}

func newDeadlockRule() *deadlockRule {
	return &deadlockRule{reenter: map[thread]map[string]*reentry{}, stuck: map[string]bool{}}
}

func (r *deadlockRule) observe(e *sim.Event, chs []change, m *model) []sim.Event {
	switch {
	case e.Kind == sim.KindMark && e.Name == sim.MarkReenter:
		t := m.threadOf(e)
		if r.reenter[t] == nil {
			r.reenter[t] = map[string]*reentry{}
		}
		r.reenter[t][e.Lock] = &reentry{seq: e.Seq}
	case e.Kind == sim.KindMark && (e.Name == sim.MarkAcquired || e.Name == sim.MarkGaveUp):
		delete(r.reenter[m.threadOf(e)], e.Lock)
	case e.Kind == sim.KindExec && e.Client != "":
		for _, ch := range chs {
			if re := r.reenter[m.threadOf(e)][ch.slot.lock]; re != nil {
				re.attempts++
				re.granted = re.granted || ch.moved
			}
		}
	}
	return nil
}

func (r *deadlockRule) finish(m *model) []sim.Event {
	var out []sim.Event
	for _, s := range m.slots() {
		if !m.locks[s.lock] || !s.present() || !m.serving(s.node) || s.state.TTL != -1 || len(s.holders) == 0 || slices.Contains(m.opt.Recovers, s.lock) {
			continue
		}
		var refs []int
		var en, zh []string
		for _, h := range s.holders {
			why, e, z := r.cannotRelease(h, s.lock, m)
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
// lock l, with the reason in both languages; 0 when it still can.
func (r *deadlockRule) cannotRelease(h holder, l string, m *model) (int, string, string) {
	t := h.th
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
		return at, fmt.Sprintf("never learnt it: the reply was lost (#%d)", at), fmt.Sprintf("却不知道：回复丢了（#%d）", at)
	}
	if re := r.reenter[t][l]; re != nil && m.believes(t, l) && re.attempts > 0 && !re.granted {
		return re.seq, fmt.Sprintf("asked for it again at #%d, waiting for itself: the lock is not re-entrant", re.seq),
			fmt.Sprintf("在 #%d 又申请了一次，等的是它自己：这把锁不可重入", re.seq)
	}
	return 0, "", ""
}
