package check

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// staleWriteRule: the protected resource (a storage service's WRITE) must
// not accept a write from a thread that believes it holds a lock but, by
// the lock's own rule, no longer does: its incarnation holds the key on
// fewer serving nodes than the lock's quorum (one node, or Redlock's
// majority). With a fencing storage (Options.FencedStorage; the WRITE
// carries a TOKEN) the lock's rule is the order tokens were issued in: the
// write is stale only once another client was issued a token after the
// writer's own. That token is normally larger; when the counter went back
// (its node restarted empty, or failed over before replicating it), it may
// be the same number or smaller, and the storage cannot tell. A later
// holder that draws no token at all (Options.Tokenless: a
// compare-and-delete client on the same key) makes the write stale too,
// from when it came to hold the lock: the storage cannot know of it.
type staleWriteRule struct {
	held   map[lease]bool      // leases that hold now
	began  map[lease]int       // seq at which each last came to hold
	ended  map[lease]int       // seq at which each last stopped holding
	tokens map[string][]issued // lock -> tokens issued, in order
	starts map[string][]start  // lock -> leases that came to hold it, in order
}

// start is a lease that came to hold its lock at seq.
type start struct {
	seq int
	ls  lease
}

// issued is a fencing token issued to a client (a token mark).
type issued struct {
	seq    int
	client string
	n      int64
}

// lease is one incarnation of a client on one lock.
type lease struct {
	client string
	inc    int
	lock   string
}

func newStaleWriteRule() *staleWriteRule {
	return &staleWriteRule{held: map[lease]bool{}, began: map[lease]int{}, ended: map[lease]int{}, tokens: map[string][]issued{}, starts: map[string][]start{}}
}

func (r *staleWriteRule) observe(e *sim.Event, chs []change, m *model) []claimed {
	r.track(e, chs, m)
	if n, ok := e.FencingToken(); ok {
		r.tokens[e.Lock] = append(r.tokens[e.Lock], issued{e.Seq, e.Client, n})
	}
	if e.Kind != sim.KindExec || e.Client == "" || len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") && !wroteResource(chs, m) {
		return nil
	}
	// A write the fenced storage refused for an older token: had it been
	// stale, fencing kept the resource (a kept line, no verdict).
	refused := e.Fact != nil && e.Fact.Key == fact.RejectedOlder && m.opt.FencedStorage
	if e.Answer.Type != sim.AnswerOK && !refused {
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
		f, ok := r.fencing(e, ls, m, refused)
		switch {
		case !ok:
			continue
		case refused && !f.fenced:
			continue
		case refused:
			return []claimed{r.kept(e, t, ls, f.later)}
		}
		return []claimed{r.stale(e, t, ls, f, m)}
	}
	return nil
}

// fencedBy is what made a fenced write stale: a later token (later; with
// the writer's own, own, when the counter went back), or a later holder
// without a token (after). fenced is false for a write the storage does
// not fence (no token, or a plain storage): its lease alone decides.
type fencedBy struct {
	own, later issued
	after      start
	fenced     bool
}

// fencing reads, for a write of lease ls that no longer holds, whether a
// fenced storage should count it stale: ok is false when no later token
// (nor, for an accepted write, a later holder without one) exists.
func (r *staleWriteRule) fencing(e *sim.Event, ls lease, m *model, refused bool) (fencedBy, bool) {
	tok, has := writeToken(e.Cmd)
	if !has || !m.opt.FencedStorage {
		return fencedBy{}, true
	}
	f := fencedBy{fenced: true}
	var ok bool
	if f.own, f.later, ok = r.laterToken(ls.lock, ls.client, tok); ok {
		if f.own.seq > 0 && f.later.n > f.own.n {
			f.own = issued{} // a newer, larger token: the writer's own is not cited
		}
		return f, true
	}
	if refused {
		return f, false
	}
	since := f.own.seq
	if since == 0 {
		since = r.began[ls]
	}
	f.own = issued{}
	f.after, ok = r.tokenlessAfter(ls.lock, ls.client, since, m.opt.Tokenless)
	return f, ok
}

// stale is the verdict for an accepted write of lease ls, which no longer
// holds, made stale by f.
func (r *staleWriteRule) stale(e *sim.Event, t thread, ls lease, f fencedBy, m *model) claimed {
	l, own, later, after := ls.lock, f.own, f.later, f.after
	var refs []int
	for _, s := range []int{r.began[ls], r.ended[ls], own.seq, later.seq, after.seq} {
		if s > 0 {
			refs = append(refs, s)
		}
	}
	refs = append(refs, e.Seq)
	claims := []Claim{t.claim(ClaimAccepted, Claim{At: e.Seq, Node: e.Node}),
		{Kind: ClaimLease, Who: t.client, Inc: t.inc, Lock: l, At: r.began[ls], Until: r.ended[ls], N: int64(m.quorum(t.client, l))},
		{Kind: ClaimHolding, Who: t.client, Inc: t.inc, Lock: l, Until: e.Seq}}
	en := fact.Say("check.accepted-write-but-no-longer", e.Node, fact.Seq(e.Seq), t.who(), t.client, l).En
	zh := fact.Say("check.accepted-write-but-no-longer", e.Node, fact.Seq(e.Seq), t.who(), t.client, l).Zh
	if q := m.quorum(t.client, l); q > 1 {
		en += fact.Say("check.on-quorum-nodes", q).En
		zh += fact.Say("check.on-quorum-nodes", q).Zh
	}
	if r.ended[ls] > 0 {
		en += fact.Say("check.taken-lost", fact.Seq(r.began[ls]), fact.Seq(r.ended[ls])).En
		zh += fact.Say("check.taken-lost", fact.Seq(r.began[ls]), fact.Seq(r.ended[ls])).Zh
	}
	en += fact.Say("check.resource-took-write-from-client").En
	zh += fact.Say("check.resource-took-write-from-client").Zh
	switch {
	case own.seq > 0:
		en += fact.Say("check.fencing-failed-because-token-counter", later.client, later.n, fact.Seq(later.seq), t.client, own.n, fact.Seq(own.seq)).En
		zh += fact.Say("check.fencing-failed-because-token-counter", later.client, later.n, fact.Seq(later.seq), t.client, own.n, fact.Seq(own.seq)).Zh
		claims = append(claims, Claim{Kind: ClaimToken, At: own.seq, Who: own.client, Lock: l, N: own.n})
	case after.seq > 0:
		en += fact.Say("check.whose-lock-draws-no-fencing", after.ls.client, l, fact.Seq(after.seq), t.client).En
		zh += fact.Say("check.whose-lock-draws-no-fencing", after.ls.client, l, fact.Seq(after.seq), t.client).Zh
		claims = append(claims, Claim{Kind: ClaimLease, Who: after.ls.client, Inc: after.ls.inc, Lock: l, At: after.seq, N: int64(m.quorum(after.ls.client, l))})
	case f.fenced:
		en += fact.Say("check.had-been-issued-newer-token", later.client, later.n, fact.Seq(later.seq)).En
		zh += fact.Say("check.had-been-issued-newer-token", later.client, later.n, fact.Seq(later.seq)).Zh
	}
	if later.seq > 0 {
		claims = append(claims, Claim{Kind: ClaimToken, At: later.seq, Who: later.client, Lock: l, N: later.n})
	}
	return verdict(StaleWrite, refs, en, zh, claims...)
}

// kept is the line for a stale write the fenced storage refused: the
// thread's lease ls had ended and later was issued to another client
// after the writer's own token.
func (r *staleWriteRule) kept(e *sim.Event, t thread, ls lease, later issued) claimed {
	var refs []int
	for _, s := range []int{r.began[ls], r.ended[ls], later.seq, e.Seq} {
		if s > 0 {
			refs = append(refs, s)
		}
	}
	en := fact.Say("check.refused-write-with-token-after", e.Node, fact.Seq(e.Seq), t.who(), e.Fact.Token, e.Fact.Highest, t.client, ls.lock).En
	zh := fact.Say("check.refused-write-with-token-after", e.Node, fact.Seq(e.Seq), t.who(), e.Fact.Token, e.Fact.Highest, t.client, ls.lock).Zh
	if r.ended[ls] > 0 {
		en += fact.Say("check.taken-lost", fact.Seq(r.began[ls]), fact.Seq(r.ended[ls])).En
		zh += fact.Say("check.taken-lost", fact.Seq(r.began[ls]), fact.Seq(r.ended[ls])).Zh
	}
	en += fact.Say("check.and-had-been-issued-token", later.client, later.n, fact.Seq(later.seq)).En
	zh += fact.Say("check.and-had-been-issued-token", later.client, later.n, fact.Seq(later.seq)).Zh
	v := verdict(StaleWrite, refs, en, zh)
	v.ev.Seq, v.kept = e.Seq, true
	return v
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
			r.starts[ls.lock] = append(r.starts[ls.lock], start{e.Seq, ls})
		case was && !now:
			r.ended[ls] = e.Seq
		}
		r.held[ls] = now
	}
}

// laterToken finds the first token for lock l issued to a client other
// than client after client's own token tok (its latest token mark with that
// number); without such a mark, the first token larger than tok issued to
// another client. ok is false when there is none: the write is not stale.
func (r *staleWriteRule) laterToken(l, client string, tok int64) (own, later issued, ok bool) {
	ts := r.tokens[l]
	for _, x := range ts {
		if x.client == client && x.n == tok {
			own = x
		}
	}
	for _, x := range ts {
		if x.client == client {
			continue
		}
		if own.seq > 0 && x.seq > own.seq || own.seq == 0 && x.n > tok {
			return own, x, true
		}
	}
	return own, issued{}, false
}

// tokenlessAfter finds the first lease of lock l, of a client other than
// client among tokenless, that came to hold l after seq since: a later
// holder the fenced storage cannot know of. ok is false when there is none.
func (r *staleWriteRule) tokenlessAfter(l, client string, since int, tokenless []string) (first start, ok bool) {
	for _, s := range r.starts[l] {
		if s.seq <= since || s.ls.client == client || !slices.Contains(tokenless, s.ls.client) {
			continue
		}
		if !ok || s.seq < first.seq || s.seq == first.seq && s.ls.client < first.ls.client {
			first, ok = s, true
		}
	}
	return first, ok
}

// wroteResource reports whether an event changed the lock's protected
// resource on the service's own store (Options.Resource).
func wroteResource(chs []change, m *model) bool {
	for _, ch := range chs {
		if m.opt.Resource != "" && ch.slot.key == m.opt.Resource && ch.moved {
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

func (r *staleWriteRule) finish(*model) []claimed { return nil }
