package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// staleWriteRule: the protected resource (a storage service's WRITE) must
// not accept a write from a thread that believes it holds a lock but, by
// the lock's own rule, no longer does: its incarnation holds the key on
// fewer serving nodes than the lock's quorum (one node, or Redlock's
// majority). With a fencing storage (Options.FencedStorage; the WRITE
// carries a TOKEN) the lock's rule is the token's order: the write is stale
// only once another client was issued a newer token.
type staleWriteRule struct {
	held   map[lease]bool // leases that hold now
	began  map[lease]int  // seq at which each last came to hold
	ended  map[lease]int  // seq at which each last stopped holding
	tokens map[string]map[string]int64
}

// lease is one incarnation of a client on one lock.
type lease struct {
	client string
	inc    int
	lock   string
}

func newStaleWriteRule() *staleWriteRule {
	return &staleWriteRule{held: map[lease]bool{}, began: map[lease]int{}, ended: map[lease]int{}, tokens: map[string]map[string]int64{}}
}

func (r *staleWriteRule) observe(e *sim.Event, chs []change, m *model) []sim.Event {
	r.track(e, chs, m)
	if e.Kind == sim.KindMark && e.Name == sim.MarkToken {
		var n int64
		if _, err := fmt.Sscanf(e.Note, "fencing token %d", &n); err == nil {
			if r.tokens[e.Lock] == nil {
				r.tokens[e.Lock] = map[string]int64{}
			}
			r.tokens[e.Lock][e.Client] = max(r.tokens[e.Lock][e.Client], n)
		}
	}
	if e.Kind != sim.KindExec || e.Client == "" || len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") || e.Reply != "OK" {
		return nil
	}
	t := m.threadOf(e)
	var locks []string
	for l, d := range m.depth[t] {
		if d > 0 {
			locks = append(locks, l)
		}
	}
	sort.Strings(locks)
	for _, l := range locks {
		ls := lease{t.client, t.inc, l}
		if r.held[ls] || r.began[ls] == 0 {
			// holding, or never held by its keys (an in-process mutex)
			continue
		}
		if tok, ok := writeToken(e.Cmd); ok && m.opt.FencedStorage && !r.newerToken(l, t.client, tok) {
			continue
		}
		var refs []int
		for _, s := range []int{r.began[ls], r.ended[ls]} {
			if s > 0 {
				refs = append(refs, s)
			}
		}
		refs = append(refs, e.Seq)
		en := fmt.Sprintf("%s at #%d accepted %s's write, but %s no longer held %s", e.Node, e.Seq, t.who(), t.client, l)
		zh := fmt.Sprintf("%s 在 #%d 接受了 %s 的写入，但 %s 已不再持有 %s", e.Node, e.Seq, t.who(), t.client, l)
		if q := m.quorum(l); q > 1 {
			en += fmt.Sprintf(" on a quorum of %d nodes", q)
			zh += fmt.Sprintf("（需要 %d 个节点的多数）", q)
		}
		if r.ended[ls] > 0 {
			en += fmt.Sprintf(" (taken at #%d, lost at #%d)", r.began[ls], r.ended[ls])
			zh += fmt.Sprintf("（#%d 获得，#%d 失去）", r.began[ls], r.ended[ls])
		}
		return []sim.Event{verdict(StaleWrite, refs,
			en+": the resource took a write from a client that no longer held the lock.",
			zh+"：被保护的资源接受了一个已不再持有锁的客户端的写入。")}
	}
	return nil
}

// track follows which leases hold, after any event that moved a lock key
// or a node.
func (r *staleWriteRule) track(e *sim.Event, chs []change, m *model) {
	relevant := e.Kind == sim.KindFault && e.Node != ""
	for _, ch := range chs {
		if m.locks[ch.slot.lock] {
			relevant = true
			for _, h := range ch.slot.holders {
				ls := lease{h.th.client, h.th.inc, ch.slot.lock}
				if _, ok := r.held[ls]; !ok {
					r.held[ls] = false
				}
			}
		}
	}
	if !relevant {
		return
	}
	for ls, was := range r.held {
		now := m.holds(ls.client, ls.inc, ls.lock)
		switch {
		case now && !was:
			r.began[ls] = e.Seq
		case was && !now:
			r.ended[ls] = e.Seq
		}
		r.held[ls] = now
	}
}

// newerToken reports whether a client other than client was issued a
// token for lock l newer than tok.
func (r *staleWriteRule) newerToken(l, client string, tok int64) bool {
	for c, n := range r.tokens[l] {
		if c != client && n > tok {
			return true
		}
	}
	return false
}

// writeToken reads a fenced WRITE's token (WRITE key value TOKEN n).
func writeToken(cmd []string) (int64, bool) {
	for i := 1; i+1 < len(cmd); i++ {
		if strings.EqualFold(cmd[i], "TOKEN") {
			n, err := strconv.ParseInt(cmd[i+1], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

func (r *staleWriteRule) finish(*model) []sim.Event { return nil }
