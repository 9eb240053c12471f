package reference

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// refs sorts seqs and keeps each once, dropping zeros (events that do not
// exist).
func refs(seqs ...int) []int {
	var out []int
	for _, s := range seqs {
		if s > 0 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	sort.Ints(out)
	return out
}

// enter: a thread enters R while another thread is inside R.
func (m *model) enter(e *sim.Event, t threadID, th *thread, r string) {
	earliest := 0
	for other, oth := range m.threads {
		if other == t {
			continue
		}
		if seq, in := oth.inside[r]; in && (earliest == 0 || seq < earliest) {
			earliest = seq
		}
	}
	if earliest != 0 {
		m.found = append(m.found, Verdict{Name: mutualExclusion, Refs: refs(earliest, e.Seq), After: e.Seq})
	}
	th.inside[r] = e.Seq // once: a second enter moves its entry
}

// foreignUnlock: an exec by t removed a lock key whose holders were old;
// the first of them (in the order they came to hold it) that is alive, is
// not t and believes it holds the resource is the victim.
func (m *model) foreignUnlock(e *sim.Event, t threadID, k string, old []holder) {
	if e.Client == "" || !m.isLock(k) {
		return
	}
	r := resourceOf(k)
	hs := slices.Clone(old)
	sort.SliceStable(hs, func(i, j int) bool { return hs[i].since < hs[j].since })
	for _, h := range hs {
		if h.t != t && m.alive(h.t) && m.thread(h.t).believe[r] > 0 {
			m.found = append(m.found, Verdict{Name: foreignUnlock, Refs: refs(h.since, e.Seq), After: e.Seq})
			return
		}
	}
}

// track updates, after every event, which incarnations hold which
// resources on a quorum of serving nodes, and when that last began or ended.
func (m *model) track(e *sim.Event) {
	counts := map[incRes]int{}
	for name, n := range m.nodes {
		if !m.serving(name) {
			continue
		}
		for kname, k := range n.keys {
			seen := map[incRes]bool{}
			for _, h := range k.holders {
				ir := incRes{h.t.client, h.t.inc, resourceOf(kname)}
				if !seen[ir] {
					seen[ir] = true
					counts[ir]++
				}
			}
		}
	}
	for ir, c := range counts {
		if c >= m.quorum(ir.res) && !m.holding[ir] {
			m.holding[ir] = true
			m.cameSeq[ir] = e.Seq
		}
	}
	for ir, held := range m.holding {
		if held && counts[ir] < m.quorum(ir.res) {
			m.holding[ir] = false
			m.fellSeq[ir] = e.Seq
		}
	}
}

// staleWrite: the storage accepted a WRITE from a thread that believes it
// holds R but does not hold it; with a fencing storage (a write with TOKEN
// n), only if another client was issued a newer token (larger than n) for
// R before it.
func (m *model) staleWrite(e *sim.Event, t threadID) {
	if len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") || e.Reply != "OK" || e.Client == "" {
		return
	}
	th := m.thread(t)
	var believed []string
	for r, d := range th.believe {
		if d > 0 {
			believed = append(believed, r)
		}
	}
	sort.Strings(believed)
	// A fenced write: a WRITE with TOKEN n to a fencing storage
	// (Options.FencedStorage).
	fenced, tok := false, int64(0)
	for i := 0; i+1 < len(e.Cmd) && m.opt.FencedStorage; i++ {
		if strings.EqualFold(e.Cmd[i], "TOKEN") {
			if n, err := strconv.ParseInt(e.Cmd[i+1], 10, 64); err == nil {
				fenced, tok = true, n
			}
		}
	}
	for _, r := range believed {
		ir := incRes{t.client, t.inc, r}
		if m.holding[ir] || m.cameSeq[ir] == 0 {
			// holding, or never held by its keys (an in-process mutex)
			continue
		}
		if fenced {
			newer := false
			for _, k := range m.tokens {
				newer = newer || k.seq < e.Seq && k.client != t.client && k.res == r && k.n > tok
			}
			if !newer {
				continue
			}
		}
		m.found = append(m.found, Verdict{Name: staleWrite, Refs: refs(m.cameSeq[ir], m.fellSeq[ir], e.Seq), After: e.Seq})
		return
	}
}

// stockSeen updates a node's stock version from an event that is no
// client's command: init, expire, replicate, a node's restart.
func (m *model) stockSeen(e *sim.Event, n *node, ks sim.KeyState) {
	if m.opt.StockKey == "" || ks.Key != m.opt.StockKey {
		return
	}
	if !ks.Exists() {
		n.stock = version{}
		return
	}
	if n.stock.id != 0 && n.stock.value == ks.Value {
		return
	}
	v := version{id: e.Seq, value: ks.Value}
	if master, ok := m.opt.ReplicaOf[e.Node]; ok && (e.Kind == sim.KindReplicate || e.Kind == sim.KindInit) {
		hist := m.node(master).stocks
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].value == ks.Value {
				v = hist[i]
				break
			}
		}
	} else if e.Kind == sim.KindInit && m.initial == nil {
		val := ks.Value
		m.initial = &val
	}
	n.stock = v
	n.stocks = append(n.stocks, v)
}

// stockRead: an exec of GET stock reads the version the node holds.
func (m *model) stockRead(e *sim.Event, n *node, t threadID, ks sim.KeyState) {
	if m.opt.StockKey == "" || ks.Key != m.opt.StockKey || len(e.Cmd) < 2 || !strings.EqualFold(e.Cmd[0], "GET") {
		return
	}
	if ks.Exists() && (n.stock.id == 0 || n.stock.value != ks.Value) {
		// A version the model did not see written: name it by this event.
		n.stock = version{id: e.Seq, value: ks.Value}
		n.stocks = append(n.stocks, n.stock)
	}
	m.thread(t).lastRead = &read{seq: e.Seq, ver: n.stock}
}

// stockWrite: an executed SET stock v, alone or in a MULTI whose EXEC was
// not refused, is a write derived from the thread's latest read.
func (m *model) stockWrite(e *sim.Event, n *node, t threadID, ks sim.KeyState) {
	if m.opt.StockKey == "" || ks.Key != m.opt.StockKey {
		return
	}
	value, ok := setStock(e.Cmd, m.opt.StockKey)
	if ok && strings.EqualFold(e.Cmd[0], "MULTI") {
		parts := strings.Split(e.Reply, "; ")
		last := parts[len(parts)-1]
		ok = last != "(nil)" && !strings.HasPrefix(last, "(error)")
	}
	if !ok {
		return
	}
	m.writes = append(m.writes, &write{seq: e.Seq, value: value, from: m.thread(t).lastRead, latest: n.stock})
	n.stock = version{id: e.Seq, value: value}
	n.stocks = append(n.stocks, n.stock)
}

// setStock finds SET key v in a command, alone or queued in a MULTI.
func setStock(cmd []string, stock string) (string, bool) {
	var part []string
	parts := [][]string{}
	for _, a := range append(slices.Clone(cmd), "|") {
		if a == "|" {
			parts = append(parts, part)
			part = nil
			continue
		}
		part = append(part, a)
	}
	for _, p := range parts {
		if len(p) >= 3 && strings.EqualFold(p[0], "SET") && p[1] == stock {
			return p[2], true
		}
	}
	return "", false
}

// horizon gives the verdicts reported when the run is over.
func (m *model) horizon() []Verdict {
	var out []Verdict
	if m.opt.StockKey != "" {
		out = append(out, m.stock()...)
	}
	out = append(out, m.deadlocks()...)
	out = append(out, m.starving()...)
	if len(m.found) == 0 && len(out) == 0 {
		out = append(out, Verdict{Name: safe})
	}
	return out
}

// stock: oversell, or else the first lost update.
func (m *model) stock() []Verdict {
	initial := 0
	if m.initial != nil {
		initial, _ = strconv.Atoi(*m.initial)
	}
	var positive, negative []int
	for _, w := range m.writes {
		if w.from != nil {
			if v, err := strconv.Atoi(w.from.ver.value); err == nil && w.from.ver.id != 0 && v > 0 {
				positive = append(positive, w.seq)
			}
		}
		if v, err := strconv.Atoi(w.value); err == nil && v < 0 {
			negative = append(negative, w.seq)
		}
	}
	if len(positive) > initial || len(negative) > 0 {
		return []Verdict{{Name: oversell, Refs: refs(append(positive, negative...)...)}}
	}
	for _, w := range m.writes {
		// A node that lost the stock (restarted empty) overwrote nothing:
		// there must be a write in between for the update to be lost.
		if w.from != nil && w.latest.id != 0 && w.from.ver.id != w.latest.id {
			return []Verdict{{Name: lostUpdate, Refs: refs(w.from.seq, w.latest.id, w.seq)}}
		}
	}
	return nil
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
			if !m.isLock(kname) || k.state.TTL != -1 || len(k.holders) == 0 || slices.Contains(m.opt.Recovers, resourceOf(kname)) {
				continue
			}
			var seqs []int
			stuck := true
			for _, h := range k.holders {
				why := m.cannotRelease(name, kname, h)
				if why == 0 {
					stuck = false
					break
				}
				seqs = append(seqs, h.since, why)
			}
			if stuck {
				m.deadRes[resourceOf(kname)] = true
				out = append(out, Verdict{Name: deadlock, Refs: refs(seqs...)})
			}
		}
	}
	return out
}

// cannotRelease gives the event that explains why a holder can never
// release a key (0: it can): dead, ended with an error, does not know it
// holds it, or waits for itself.
func (m *model) cannotRelease(nodeName, kname string, h holder) int {
	c := m.client(h.t.client)
	th := m.thread(h.t)
	r := resourceOf(kname)
	switch {
	case c.inc != h.t.inc || c.crashed:
		// the crash that ended the holder's incarnation
		return c.crashes[min(h.t.inc, len(c.crashes)-1)]
	case th.failed:
		return th.done
	}
	if th.believe[r] == 0 {
		if m.threadExec(h) {
			return m.reqFailOf(h.since)
		}
		return 0
	}
	re, ok := th.reenter[r]
	if !ok {
		return 0
	}
	n := 0
	for _, a := range th.attempts[nodeName+"\x00"+kname] {
		if a.seq <= re {
			continue
		}
		if a.changed {
			return 0
		}
		n++
	}
	if n == 0 {
		return 0
	}
	return re
}

// threadExec reports whether a holder came to hold its key by a request's
// exec (not, say, by a replica applying its master's write).
func (m *model) threadExec(h holder) bool { return m.execReq[h.since] != 0 }

// reqFailOf is the lost or timeout event of the request whose exec is seq.
func (m *model) reqFailOf(seq int) int { return m.reqFail[m.execReq[seq]] }

// starving: live threads that, from their first refused attempt to the end
// and for at least 10s, found their lock held by others without acquiring
// it or giving up, on a resource that is not deadlocked. The first refused
// attempt is that of the wait still going on at the horizon: the first
// since the thread last acquired the resource or gave it up.
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
		// up a lock
		since := 0
		for _, seqs := range th.acquired {
			since = max(since, slices.Max(append([]int{0}, seqs...)))
		}
		for _, seqs := range th.gaveUp {
			since = max(since, slices.Max(append([]int{0}, seqs...)))
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
