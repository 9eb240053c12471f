package narrate

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// storage tells what the protected storage did with a client's write: a
// write it refused by its fencing token, or one it accepted from a client
// that no longer holds its lock.
func (n *Narrator) storage(e *sim.Event) []Line {
	f := e.Fact
	if f == nil || e.Client == "" {
		return nil
	}
	who := e.Who()
	switch f.Key {
	case fact.RejectedOlder:
		return n.one(e, Claim{}, fact.Say("narrate.storage.refuses-older", who, f.Token, f.Highest))
	case fact.RejectedNoToken:
		return n.one(e, Claim{}, fact.Say("narrate.storage.refuses-no-token", who))
	case fact.FirstToken, fact.TokenAccepted, fact.PlainStorage:
	default:
		return nil
	}
	v := n.c.View()
	for _, l := range v.Locks(e.Client) {
		on, need := v.HeldOn(e.Client, l)
		if on >= need {
			continue
		}
		var token fact.Text
		if f.Key != fact.PlainStorage {
			token = fact.Say("narrate.storage.with-token", f.Token)
		}
		switch {
		case n.c.Revealed(sim.VerdictStaleWrite):
			return n.one(e, Claim{Kind: ClaimStaleWrite, Who: e.Client, Lock: l}, fact.Say("narrate.storage.stale-write", who, token, e.Client, lockName(l)))
		case f.Key != fact.PlainStorage:
			// fenced, and by the checker not stale: no later token, no
			// holder without one since the writer's token
			return n.one(e, Claim{Kind: ClaimLapsedWrite, Who: e.Client, Lock: l}, fact.Say("narrate.storage.lapsed-write", who, token, e.Client, lockName(l)))
		}
	}
	return nil
}

// quorums tells when a client that believes it holds a lock of a quorum
// (Redlock's majority) no longer has its keys on enough nodes, and when
// it has them again.
func (n *Narrator) quorums(e *sim.Event) []Line {
	v := n.c.View()
	var out []Line
	for _, who := range v.Insiders() {
		c := clientOf(who.Who)
		key := c + "\x00" + who.Lock
		on, need := v.HeldOn(c, who.Lock)
		if need <= 1 || !v.Believes(c, who.Lock) {
			continue
		}
		switch short := on < need; {
		case short && !n.short[key]:
			n.short[key] = true
			out = append(out, Line{Text: fact.Say("narrate.short-of-quorum", c, on, nodes(on), need, lockName(who.Lock)),
				Refs: []int{e.Seq, who.Seq}, Claim: Claim{Kind: ClaimShort, Who: c, Lock: who.Lock, On: on, Need: need}})
		case !short && n.short[key]:
			delete(n.short, key)
		}
	}
	return out
}

// insideWith are the threads other than who inside lock l's critical
// section: the ones a thread entering l is inside with (two threads of
// one process are two, a thread inside another lock is not with it).
func (n *Narrator) insideWith(who, l string) []check.Insider {
	var out []check.Insider
	for _, in := range n.c.View().Insiders() {
		if in.Who != who && in.Lock == l && !slices.ContainsFunc(out, func(o check.Insider) bool { return o.Who == in.Who }) {
			out = append(out, in)
		}
	}
	return out
}

// othersInside are the threads inside a critical section that belong to
// clients other than c.
func (n *Narrator) othersInside(c string) []check.Insider {
	var out []check.Insider
	for _, in := range n.c.View().Insiders() {
		if clientOf(in.Who) != c && !slices.ContainsFunc(out, func(o check.Insider) bool { return o.Who == in.Who }) {
			out = append(out, in)
		}
	}
	return out
}

// insiders gives the names and enter seqs of threads inside.
func insiders(ins []check.Insider) ([]string, []int) {
	names, seqs := make([]string, len(ins)), make([]int, len(ins))
	for i, in := range ins {
		names[i], seqs[i] = in.Who, in.Seq
	}
	return names, seqs
}

// Now is a line that says where things stand: who is inside, and which
// keys hold whose lock on the nodes that are up. ok is false when there is
// nothing to say (no one inside, no key holding a lock).
func (n *Narrator) Now() (Line, bool) {
	v := n.c.View()
	var parts []fact.Text
	in := v.Insiders()
	var names []string
	var refs []int
	var holds []Held
	for _, i := range in {
		if !slices.Contains(names, i.Who) {
			names = append(names, i.Who)
			refs = append(refs, i.Seq)
		}
	}
	if len(names) > 0 {
		parts = append(parts, fact.Say("narrate.now.inside", nameList(names), isAre(len(names))))
	}
	for _, k := range v.Held() {
		if !k.IsLock || v.Down(k.Node) || !v.Serving(k.Node) {
			continue
		}
		var owners []string
		for _, h := range k.After {
			owners = appendNew(owners, h.Client)
		}
		holds = append(holds, Held{Node: k.Node, Key: k.Key, Whose: owners})
		parts = append(parts, fact.Say("narrate.now.holds", k.Key, k.Node, ownerList(owners)))
	}
	if len(parts) == 0 {
		return Line{}, false
	}
	return Line{Text: fact.Say("narrate.now", joinedTexts(fact.Say("narrate.now.sep"), parts)), Refs: refs,
		Claim: Claim{Kind: ClaimNow, Inside: names, Holds: holds}}, true
}
