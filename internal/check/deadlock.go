package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
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
	release map[thread]map[string]int // thread -> lock -> seq of its latest released mark
	failed  map[thread]map[string]int // thread -> lock -> seq of its latest release-failed mark
	promote map[string]int            // replica -> seq of the failover that promoted it
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
	return &deadlockRule{reenter: map[thread]map[string]int{}, release: map[thread]map[string]int{}, failed: map[thread]map[string]int{}, promote: map[string]int{}, asks: map[thread]map[*slot]*asking{}, stuck: map[string]bool{}}
}

func (r *deadlockRule) observe(e *sim.Event, chs []change, m *model) []claimed {
	switch {
	case e.Kind == sim.KindMark && e.Name == sim.MarkReenter:
		t := m.threadOf(e)
		if r.reenter[t] == nil {
			r.reenter[t] = map[string]int{}
		}
		r.reenter[t][e.Lock] = e.Seq
	case e.Kind == sim.KindMark && e.Name == sim.MarkReleased:
		t := m.threadOf(e)
		if r.release[t] == nil {
			r.release[t] = map[string]int{}
		}
		r.release[t][e.Lock] = e.Seq
	case e.Kind == sim.KindMark && e.Name == sim.MarkReleaseFailed:
		t := m.threadOf(e)
		if r.failed[t] == nil {
			r.failed[t] = map[string]int{}
		}
		r.failed[t][e.Lock] = e.Seq
	case e.Kind == sim.KindFault && e.Name == string(sim.FaultFailover) && e.Applied() && e.Fact != nil && e.Fact.Replica != "":
		r.promote[e.Fact.Replica] = e.Seq
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

func (r *deadlockRule) finish(m *model) []claimed {
	var out []claimed
	for _, s := range m.slots() {
		if !m.locks[s.lock] || !s.present() || !m.serving(s.node) || s.state.TTL != -1 || len(s.holders) == 0 {
			continue
		}
		freed, none := m.recovered(s)
		if freed {
			continue
		}
		refs, claims := []int{}, []Claim{{Kind: ClaimNoExpiry, Node: s.node, Key: s.key}}
		var en, zh []string
		for _, h := range s.holders {
			why := r.cannotRelease(h, s, m)
			if why.at == 0 {
				refs = nil
				break
			}
			refs = append(refs, h.since)
			refs = append(refs, why.cites...)
			refs = append(refs, why.at)
			claims = append(claims, h.th.claim(ClaimHeld, Claim{At: h.since, Node: s.node, Key: s.key}))
			claims = append(claims, why.claims...)
			en = append(en, fmt.Sprintf("%s has held it since #%d and %s", h.th.who(), fact.Seq(h.since), why.en))
			zh = append(zh, fmt.Sprintf("%s 自 #%d 起持有它，%s", h.th.who(), fact.Seq(h.since), why.zh))
		}
		if refs == nil {
			continue
		}
		r.stuck[s.lock] = true
		rec, recZh := "", ""
		if len(none) > 0 {
			var ens, zhs []string
			for _, n := range none {
				who := n.client
				if who == "" {
					who = "the cleanup job"
				}
				c := Claim{Kind: ClaimRecovers, Who: n.client, At: n.at, Node: s.node, Key: s.key, Lock: s.lock}
				switch {
				case n.value:
					c.N = 1
					ens = append(ens, fmt.Sprintf("%s's algorithm does not free a value like this one", who))
					zhs = append(zhs, fmt.Sprintf("%s 的算法不会处理这样的值", who))
				case n.crashed:
					ens = append(ens, fmt.Sprintf("%s crashed at #%d", who, fact.Seq(n.at)))
					zhs = append(zhs, fmt.Sprintf("%s 在 #%d 崩溃了", who, fact.Seq(n.at)))
				default:
					ens = append(ens, fmt.Sprintf("%s's program ended at #%d", who, fact.Seq(n.at)))
					zhs = append(zhs, fmt.Sprintf("%s 的程序在 #%d 结束了", who, fact.Seq(n.at)))
				}
				claims = append(claims, c)
			}
			rec = fmt.Sprintf(" No live client frees it by its algorithm's own recovery: %s.", strings.Join(ens, "; "))
			recZh = fmt.Sprintf("也没有活着的客户端会用算法自带的恢复手段释放它：%s。", strings.Join(zhs, "；"))
		}
		out = append(out, verdict(Deadlock, refs,
			fmt.Sprintf("%s on %s has no expiry and nobody who can release it: %s.%s It stays locked for ever.", s.key, s.node, strings.Join(en, "; "), rec),
			fmt.Sprintf("%s 上的 %s 没有过期时间，也没有任何能释放它的人：%s。%s这把锁永远不会再打开：死锁。", s.node, s.key, strings.Join(zh, "；"), recZh),
			claims...))
	}
	return out
}

// release is why a holder can never release a key: the event that shows
// it (0: it still can), the reason in both languages and its claims.
type release struct {
	at     int
	cites  []int // the earlier events the reason names (a release, a failover)
	en, zh string
	claims []Claim
}

// cannotRelease says why holder h can never release key s.
func (r *deadlockRule) cannotRelease(h holder, s *slot, m *model) release {
	t, l := h.th, s.lock
	if t.inc != m.inc[t.client] {
		at := m.crashes[t.client][t.inc]
		return release{at, nil, fmt.Sprintf("crashed at #%d without releasing it", fact.Seq(at)), fmt.Sprintf("在 #%d 崩溃，没有释放", fact.Seq(at)),
			[]Claim{t.claim(ClaimCrashed, Claim{At: at})}}
	}
	if at, ok := m.ended[t]; ok {
		return release{at, nil, fmt.Sprintf("ended with an error at #%d", fact.Seq(at)), fmt.Sprintf("在 #%d 出错结束", fact.Seq(at)),
			[]Claim{t.claim(ClaimEnded, Claim{At: at, N: 1})}}
	}
	if at, ok := m.finished[t]; ok {
		// requests run in turn on main: its end is the program's
		if rel, fo := r.release[t][l], r.promote[s.node]; rel > h.since && fo > rel {
			// its release removed the key on the old master; the failover
			// promoted a copy that never heard of it
			return release{at, []int{rel, fo}, fmt.Sprintf("released it at #%d, but the failover at #%d promoted a copy of the key that release never reached; it finished its program at #%d", fact.Seq(rel), fact.Seq(fo), fact.Seq(at)),
				fmt.Sprintf("在 #%d 释放了它，但 #%d 的主从切换提升了一份那次释放从未到达的键副本；它在 #%d 运行结束", fact.Seq(rel), fact.Seq(fo), fact.Seq(at)),
				[]Claim{t.claim(ClaimReleased, Claim{At: rel, Until: h.since, Lock: l}), {Kind: ClaimPromoted, At: fo, Node: s.node}, t.claim(ClaimEnded, Claim{At: at})}}
		}
		if fl := r.failed[t][l]; fl > h.since {
			return release{at, []int{fl}, fmt.Sprintf("its release failed at #%d and it finished its program at #%d without another try", fact.Seq(fl), fact.Seq(at)),
				fmt.Sprintf("它在 #%d 的释放失败了，之后没有再试，在 #%d 运行结束", fact.Seq(fl), fact.Seq(at)),
				[]Claim{t.claim(ClaimReleased, Claim{At: fl, Until: h.since, Lock: l, N: 1}), t.claim(ClaimEnded, Claim{At: at})}}
		}
		return release{at, nil, fmt.Sprintf("finished its program at #%d without releasing it", fact.Seq(at)), fmt.Sprintf("在 #%d 运行结束，没有释放", fact.Seq(at)),
			[]Claim{t.claim(ClaimEnded, Claim{At: at})}}
	}
	if at, lost := m.unanswered[h.req]; lost && !m.believes(t, l) {
		what, zhWhat, n := "was lost", "丢了", int64(0)
		if m.timedOut[h.req] {
			what, zhWhat, n = "never came in time (the request timed out)", "没有按时到达（请求超时）", 1
		}
		return release{at, nil, fmt.Sprintf("never learnt it: the reply %s (#%d)", what, fact.Seq(at)), fmt.Sprintf("却不知道：回复%s（#%d）", zhWhat, fact.Seq(at)),
			[]Claim{t.claim(ClaimUnanswered, Claim{At: at, Until: h.since, Node: s.node, Key: s.key, N: n}), t.claim(ClaimBelieved, Claim{Lock: l})}}
	}
	if a := r.asks[t][s]; a != nil && a.since == h.since && a.n > 0 && !a.moved {
		at := a.first
		if re := r.reenter[t][l]; re > h.since {
			at = re
		}
		return release{at, nil, fmt.Sprintf("asked for it again at #%d while holding it: none of its %d writes to the key since #%d changed it, it waits for itself (the lock is not re-entrant)", fact.Seq(at), a.n, fact.Seq(h.since)),
			fmt.Sprintf("在持有它的同时于 #%d 又申请了一次：自 #%d 起它对这个键的 %d 次写入都没有改变它，它在等它自己（这把锁不可重入）", fact.Seq(at), fact.Seq(h.since), a.n),
			[]Claim{t.claim(ClaimAsksSelf, Claim{At: at, Until: h.since, Node: s.node, Key: s.key, Lock: l, N: int64(a.n)})}}
	}
	return release{}
}
