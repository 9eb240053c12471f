package reference

// The verdicts reported when the run is over: deadlock, starvation,
// no progress, safe.

import (
	"slices"
	"sort"

	"github.com/lockstep/lockstep/internal/sim"
)

// horizon gives the verdicts reported when the run is over.
func (m *model) horizon() []Verdict {
	var out []Verdict
	if m.opt.StockKey != "" {
		out = append(out, m.stock()...)
	}
	dl, st := m.deadlocks(), m.starving()
	out = append(out, dl...)
	out = append(out, st...)
	if len(dl) == 0 && len(st) == 0 {
		out = append(out, m.noProgress()...)
	}
	if len(m.found) == 0 && len(out) == 0 {
		out = append(out, Verdict{Name: safe})
	}
	return out
}

// deadlocks: lock keys that exist at the horizon, have no TTL, have
// holders, none of whom can ever release them; by node, then key.
func (m *model) deadlocks() []Verdict {
	var out []Verdict
	names := make([]string, 0, len(m.nodes))
	for name := range m.nodes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !m.serving(name) {
			continue
		}
		n := m.nodes[name]
		keys := make([]string, 0, len(n.keys))
		for k := range n.keys {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, kname := range keys {
			k := n.keys[kname]
			if !m.isLock(kname) || k.state.TTL != -1 || len(k.holders) == 0 || m.recoverer(resourceOf(kname), k.state) {
				continue
			}
			var seqs []int
			stuck := true
			for _, h := range k.holders {
				why := m.cannotRelease(name, kname, h)
				if len(why) == 0 {
					stuck = false
					break
				}
				seqs = append(seqs, h.since)
				seqs = append(seqs, why...)
			}
			if stuck {
				m.deadRes[resourceOf(kname)] = true
				out = append(out, Verdict{Name: deadlock, Refs: refs(seqs...)})
			}
		}
	}
	return out
}

// recoverer reports whether someone will free a stuck key of resource r by
// the algorithm's own recovery: a service's cleanup job, a client that is
// up, whose main thread is not done, and whose algorithm frees a key of
// this type and value, or, when that value is the key's lease (the
// timestamp lock), any client of the algorithm, a later one too.
func (m *model) recoverer(r string, ks sim.KeyState) bool {
	for _, rc := range m.opt.Recoverers {
		if rc.Lock != r || rc.Frees != nil && !rc.Frees(ks.Type, ks.Value) {
			continue
		}
		if rc.Client == "" || rc.Lease {
			return true
		}
		c := m.client(rc.Client)
		main := threadID{client: rc.Client, inc: c.inc, name: "main"}
		if th := m.threads[main]; !c.crashed && (th == nil || th.done == 0) {
			return true
		}
	}
	return false
}

// cannotRelease gives the events that explain why a holder can never
// release a key (none: it can): dead, ended with an error, finished its
// program (its main thread is done; with the release a failover lost, or
// the release that failed, when there was one), does not know it holds
// it, or waits for itself.
func (m *model) cannotRelease(nodeName, kname string, h holder) []int {
	c := m.client(h.t.client)
	th := m.thread(h.t)
	r := resourceOf(kname)
	switch {
	case c.inc != h.t.inc || c.crashed:
		// the crash that ended the holder's incarnation
		return []int{c.crashes[min(h.t.inc, len(c.crashes)-1)]}
	case th.failed:
		return []int{th.done}
	case h.t.name == "main" && th.done != 0:
		// the program is over: nothing will ever send a release again
		if rel := th.released[r]; rel > h.since {
			if fo := m.failedOver[m.opt.ReplicaOf[nodeName]]; fo > rel {
				return []int{rel, fo, th.done} // its release stayed on the old master
			}
		}
		if fl := th.relFailed[r]; fl > h.since {
			return []int{fl, th.done}
		}
		return []int{th.done}
	}
	if lost := m.reqFail[h.req]; th.believe[r] == 0 && h.req != 0 && lost != 0 {
		return []int{lost}
	}
	// Waits for itself: it has written to the key since it came to hold
	// it, and no such write changed it. The event: its latest reenter mark
	// since then, else its first such write.
	first, n := 0, 0
	for _, a := range th.attempts[nodeName+"\x00"+kname] {
		if a.seq <= h.since || !a.write {
			continue
		}
		if a.changed {
			return nil
		}
		if first == 0 {
			first = a.seq
		}
		n++
	}
	if n == 0 {
		return nil
	}
	if re, ok := th.reenter[r]; ok && re > h.since {
		return []int{re}
	}
	return []int{first}
}

// starving: live threads that, from their first refused attempt to the end
// and for at least 10s, found their lock held by others without acquiring
// it or giving up, on a resource that is not deadlocked. The first refused
// attempt is that of the wait still going on at the horizon: the first
// since the thread last acquired a lock or gave it up, or came to hold a
// lock key (whether or not it learnt it).
func (m *model) starving() []Verdict {
	deadRes := m.deadRes
	type cand struct {
		first int
		v     Verdict
	}
	var cs []cand
	for _, t := range m.threadOf {
		th := m.threads[t]
		if len(th.refused) == 0 || !m.alive(t) || th.done != 0 {
			continue
		}
		// the wait starts afresh each time the thread acquires or gives
		// up a lock, or comes to hold a lock key
		since := 0
		for _, seqs := range th.acquired {
			since = max(since, slices.Max(append([]int{0}, seqs...)))
		}
		for _, seqs := range th.gaveUp {
			since = max(since, slices.Max(append([]int{0}, seqs...)))
		}
		for _, seq := range th.gotKey {
			since = max(since, seq)
		}
		i := slices.IndexFunc(th.refused, func(x refusal) bool { return x.seq > since })
		if i < 0 {
			continue
		}
		f := th.refused[i]
		r := resourceOf(f.key)
		if deadRes[r] || int64(m.endT)-f.t < int64(starveAfter) {
			continue
		}
		last := f
		for _, x := range th.refused {
			if resourceOf(x.key) == r {
				last = x
			}
		}
		holderSince := 0
		if k := m.nodes[last.node].keys[last.key]; k != nil {
			for _, h := range k.holders {
				if holderSince == 0 || h.since < holderSince {
					holderSince = h.since
				}
			}
		}
		cs = append(cs, cand{f.seq, Verdict{Name: starvation, Refs: refs(f.seq, last.seq, holderSince)}})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].first < cs[j].first })
	var out []Verdict
	for _, c := range cs {
		out = append(out, c.v)
	}
	return out
}

// noProgress: no thread ever acquired a lock or entered a critical
// section, and a thread's
// tries to take a lock (execs that gave it a lock key or were refused one)
// span at least starveAfter, first to last; the thread whose first try
// came first is cited. (Not asked when a deadlock or a starvation was
// found.)
func (m *model) noProgress() []Verdict {
	if m.entered {
		return nil
	}
	var best []try
	for _, th := range m.threads {
		ts := th.tries
		if len(ts) == 0 || ts[len(ts)-1].t-ts[0].t < int64(starveAfter) {
			continue
		}
		if best == nil || ts[0].seq < best[0].seq {
			best = ts
		}
	}
	if best == nil {
		return nil
	}
	return []Verdict{{Name: noProgress, Refs: refs(best[0].seq, best[len(best)-1].seq)}}
}
