package check

import (
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
			en = append(en, fact.Say("check.has-held-since-and", h.th.who(), fact.Seq(h.since), fact.Text{En: why.en, Zh: why.zh}).En)
			zh = append(zh, fact.Say("check.has-held-since-and", h.th.who(), fact.Seq(h.since), fact.Text{En: why.en, Zh: why.zh}).Zh)
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
					ens = append(ens, fact.Say("check.algorithm-does-not-free-value", who).En)
					zhs = append(zhs, fact.Say("check.algorithm-does-not-free-value", who).Zh)
				case n.crashed:
					ens = append(ens, fact.Say("check.crashed", who, fact.Seq(n.at)).En)
					zhs = append(zhs, fact.Say("check.crashed", who, fact.Seq(n.at)).Zh)
				default:
					ens = append(ens, fact.Say("check.program-ended", who, fact.Seq(n.at)).En)
					zhs = append(zhs, fact.Say("check.program-ended", who, fact.Seq(n.at)).Zh)
				}
				claims = append(claims, c)
			}
			rec = fact.Say("check.no-live-client-frees-by", fact.Text{En: strings.Join(ens, "; "), Zh: strings.Join(zhs, "；")}).En
			recZh = fact.Say("check.no-live-client-frees-by", fact.Text{En: strings.Join(ens, "; "), Zh: strings.Join(zhs, "；")}).Zh
		}
		out = append(out, verdict(Deadlock, refs,
			fact.Say("check.on-has-no-expiry-and", s.key, s.node, fact.Text{En: strings.Join(en, "; "), Zh: strings.Join(zh, "；")}, fact.Text{En: rec, Zh: recZh}).En,
			fact.Say("check.on-has-no-expiry-and", s.key, s.node, fact.Text{En: strings.Join(en, "; "), Zh: strings.Join(zh, "；")}, fact.Text{En: rec, Zh: recZh}).Zh,
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
		return release{at, nil, fact.Say("check.crashed-without-releasing", fact.Seq(at)).En, fact.Say("check.crashed-without-releasing", fact.Seq(at)).Zh,
			[]Claim{t.claim(ClaimCrashed, Claim{At: at})}}
	}
	if at, ok := m.ended[t]; ok {
		return release{at, nil, fact.Say("check.ended-with-error", fact.Seq(at)).En, fact.Say("check.ended-with-error", fact.Seq(at)).Zh,
			[]Claim{t.claim(ClaimEnded, Claim{At: at, N: 1})}}
	}
	if at, ok := m.finished[t]; ok {
		// requests run in turn on main: its end is the program's
		if rel, fo := r.release[t][l], r.promote[s.node]; rel > h.since && fo > rel {
			// its release removed the key on the old master; the failover
			// promoted a copy that never heard of it
			return release{at, []int{rel, fo}, fact.Say("check.released-but-failover-promoted-copy", fact.Seq(rel), fact.Seq(fo), fact.Seq(at)).En,
				fact.Say("check.released-but-failover-promoted-copy", fact.Seq(rel), fact.Seq(fo), fact.Seq(at)).Zh,
				[]Claim{t.claim(ClaimReleased, Claim{At: rel, Until: h.since, Lock: l}), {Kind: ClaimPromoted, At: fo, Node: s.node}, t.claim(ClaimEnded, Claim{At: at})}}
		}
		if fl := r.failed[t][l]; fl > h.since {
			return release{at, []int{fl}, fact.Say("check.release-failed-and-finished-program", fact.Seq(fl), fact.Seq(at)).En,
				fact.Say("check.release-failed-and-finished-program", fact.Seq(fl), fact.Seq(at)).Zh,
				[]Claim{t.claim(ClaimReleased, Claim{At: fl, Until: h.since, Lock: l, N: 1}), t.claim(ClaimEnded, Claim{At: at})}}
		}
		return release{at, nil, fact.Say("check.finished-program-without-releasing", fact.Seq(at)).En, fact.Say("check.finished-program-without-releasing", fact.Seq(at)).Zh,
			[]Claim{t.claim(ClaimEnded, Claim{At: at})}}
	}
	if at, lost := m.unanswered[h.req]; lost && !m.believes(t, l) {
		what, zhWhat, n := fact.Say("check.was-lost").En, fact.Say("check.was-lost").Zh, int64(0)
		if m.timedOut[h.req] {
			what, zhWhat, n = fact.Say("check.never-came-in-time-request").En, fact.Say("check.never-came-in-time-request").Zh, 1
		}
		return release{at, nil, fact.Say("check.never-learnt-reply", fact.Text{En: what, Zh: zhWhat}, fact.Seq(at)).En, fact.Say("check.never-learnt-reply", fact.Text{En: what, Zh: zhWhat}, fact.Seq(at)).Zh,
			[]Claim{t.claim(ClaimUnanswered, Claim{At: at, Until: h.since, Node: s.node, Key: s.key, N: n}), t.claim(ClaimBelieved, Claim{Lock: l})}}
	}
	if a := r.asks[t][s]; a != nil && a.since == h.since && a.n > 0 && !a.moved {
		at := a.first
		if re := r.reenter[t][l]; re > h.since {
			at = re
		}
		return release{at, nil, fact.Say("check.asked-for-again-while-holding", fact.Seq(at), a.n, fact.Seq(h.since)).En,
			fact.Say("check.asked-for-again-while-holding", fact.Seq(at), a.n, fact.Seq(h.since)).Zh,
			[]Claim{t.claim(ClaimAsksSelf, Claim{At: at, Until: h.since, Node: s.node, Key: s.key, Lock: l, N: int64(a.n)})}}
	}
	return release{}
}
