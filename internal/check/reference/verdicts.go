package reference

// The verdicts found while the log replays: mutual exclusion, foreign unlock, stale write.

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
		if c >= m.quorum(ir.client, ir.res) && !m.holding[ir] {
			m.holding[ir] = true
			m.cameSeq[ir] = e.Seq
			m.came = append(m.came, cameAt{e.Seq, ir})
		}
	}
	for ir, held := range m.holding {
		if held && counts[ir] < m.quorum(ir.client, ir.res) {
			m.holding[ir] = false
			m.fellSeq[ir] = e.Seq
		}
	}
}

// staleWrite: the storage accepted a WRITE from a thread that believes it
// holds R but does not hold it; with a fencing storage (a write with TOKEN
// n), only if another client was issued a token for R after the writer's
// own token n (its latest token mark with that number), whatever that
// token's number (a counter that went back reissues numbers); without such
// a mark, a token larger than n; or, when there is no such token, if a
// client whose algorithm draws no token came to hold R after the writer's
// own token (without one, after the writer last came to hold R).
func (m *model) staleWrite(e *sim.Event, t threadID) {
	if len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") || e.Answer.Type != sim.AnswerOK || e.Client == "" {
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
		own, later := 0, 0
		if fenced {
			for _, k := range m.tokens {
				if k.client == t.client && k.res == r && k.n == tok {
					own = k.seq
				}
			}
			for _, k := range m.tokens {
				if later == 0 && k.client != t.client && k.res == r && (own != 0 && k.seq > own || own == 0 && k.n > tok) {
					later = k.seq
				}
			}
			if later == 0 {
				// a client whose algorithm draws no token came to hold R
				// after the writer's token (or its holding): the storage
				// cannot know of it
				since := own
				if since == 0 {
					since = m.cameSeq[ir]
				}
				if later = m.tokenlessHolder(t.client, r, since); later == 0 {
					continue
				}
				own = 0
			} else if laterN, ownN := m.tokenAt(later), tok; own != 0 && laterN > ownN {
				own = 0 // a newer, larger token: the writer's own is not cited
			}
		}
		m.found = append(m.found, Verdict{Name: staleWrite, Refs: refs(m.cameSeq[ir], m.fellSeq[ir], own, later, e.Seq), After: e.Seq})
		return
	}
}

// tokenlessHolder is the first event after since at which a client other
// than client, one of Options.Tokenless, came to hold resource r (0: none).
func (m *model) tokenlessHolder(client, r string, since int) int {
	first := 0
	for _, c := range m.came {
		if c.seq > since && c.ir.res == r && c.ir.client != client && slices.Contains(m.opt.Tokenless, c.ir.client) && (first == 0 || c.seq < first) {
			first = c.seq
		}
	}
	return first
}

// tokenAt is the number of the token issued at seq.
func (m *model) tokenAt(seq int) int64 {
	for _, k := range m.tokens {
		if k.seq == seq {
			return k.n
		}
	}
	return 0
}
