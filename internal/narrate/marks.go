package narrate

// The steps a client reports (its marks): it acquires, enters, leaves,
// releases, counts Redlock's votes; each told from what the checker's
// model says of it.

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// mark tells a step a client reports.
func (n *Narrator) mark(e *sim.Event) []Line {
	who := e.Who()
	f := e.Fact
	if f == nil {
		f = &fact.Fact{}
	}
	switch e.Name {
	case sim.MarkAcquired:
		n.wrote[who] = nil
		delete(n.short, e.Client+"\x00"+e.Lock)
		if f.Key == fact.HoldOf && f.Hold > 1 {
			return n.one(e, Claim{Kind: ClaimAcquires}, fact.Say("narrate.acquires-again", who, lockName(e.Lock), f.Hold, f.Depth))
		}
		return n.one(e, Claim{Kind: ClaimAcquires}, fact.Say("narrate.acquires", who, lockName(e.Lock)))
	case sim.MarkEnter:
		n.in[who] = true
		if others := n.insideWith(who, e.Lock); len(others) > 0 {
			names, seqs := insiders(others)
			return n.one(e, Claim{Kind: ClaimEnters, Inside: names}, fact.Say("narrate.enters-while-inside", who, nameList(names), isAre(len(names))), seqs...)
		}
		return n.one(e, Claim{Kind: ClaimEnters}, fact.Say("narrate.enters", who))
	case sim.MarkLeave:
		delete(n.in, who)
		return n.one(e, Claim{Kind: ClaimLeaves}, fact.Say("narrate.leaves", who))
	case sim.MarkReleased:
		defer func() { n.wrote[who] = nil }()
		if f.Key == fact.HoldGivenBack && f.Hold > 1 {
			if n.c.View().HeldOnBy(who, e.Lock) > 0 {
				return n.one(e, Claim{Kind: ClaimGivesBack}, fact.Say("narrate.gives-back-holds", who, f.Hold, f.Depth, lockName(e.Lock)))
			}
			return n.one(e, Claim{Kind: ClaimGivesBack, Gone: true}, fact.Say("narrate.gives-back-gone", who, f.Hold, f.Depth, lockName(e.Lock)))
		}
		return n.released(e)
	case sim.MarkReleaseRefused:
		n.wrote[who] = nil
		return n.refused(e)
	}
	return n.otherMark(e, who, f)
}

// otherMark tells the other marks of a lock: a WAIT that found no replica,
// Redlock's votes, and the stock written back while others are inside.
func (n *Narrator) otherMark(e *sim.Event, who string, f *fact.Fact) []Line {
	switch e.Name {
	case "not-replicated":
		return n.one(e, Claim{}, fact.Say("narrate.not-replicated", who))
	case "quorum":
		if v := f.Votes; v != nil {
			return n.one(e, Claim{Kind: ClaimVotes}, fact.Say("narrate.quorum", who, v.Yes, v.Of, v.Need))
		}
	case "no-quorum":
		if v := f.Votes; v != nil {
			return n.one(e, Claim{Kind: ClaimVotes, ReleasedOn: v.ReleasedOn}, fact.Say("narrate.no-quorum", who, v.Yes, v.Of, v.Need, releasedOn(v.ReleasedOn)))
		}
	case "too-late":
		if v := f.Votes; v != nil {
			return n.one(e, Claim{Kind: ClaimVotes, ReleasedOn: v.ReleasedOn}, fact.Say("narrate.too-late", who, releasedOn(v.ReleasedOn)))
		}
	case "renewed":
		return n.orphan(e, f)
	case sim.MarkDeduct:
		if others := n.othersInside(e.Client); len(others) > 0 && f.Key == fact.Stock {
			names, seqs := insiders(others)
			return n.one(e, Claim{Kind: ClaimStock, Inside: names}, fact.Say("narrate.stock-while-inside", who, f.From, f.To, nameList(names), isAre(len(names))), seqs...)
		}
	}
	return nil
}

// releasedOn says where a failed Redlock vote releases.
func releasedOn(r fact.Release) fact.Text {
	if r == fact.ReleaseYes {
		return fact.Say("narrate.released-on-yes")
	}
	return fact.Say("narrate.released-on-every")
}

// released tells a release from what the thread's commands did to the
// lock's keys since it acquired it: its own lock removed, another's, or
// nothing at all.
func (n *Narrator) released(e *sim.Event) []Line {
	who := e.Who()
	var own, gone []string // nodes where it removed its own hold; where it deleted a key another held
	var others []string
	var refs []int
	wrote := false
	for _, ch := range n.wrote[who] {
		if ch.Lock != e.Lock {
			continue
		}
		wrote = true
		if !ch.Removed {
			// a key that stays: its own hold left it (a shared hash
			// field counted down), others' holds remain
			if left(ch, who) {
				own = appendNew(own, ch.Node)
			}
			continue
		}
		if slices.ContainsFunc(ch.Before, func(h check.Holder) bool { return same(h, ch.By) }) {
			own = appendNew(own, ch.Node)
			continue
		}
		for _, h := range ch.Before {
			others = appendNew(others, h.Client)
			refs = append(refs, h.Since)
		}
		gone = appendNew(gone, ch.Node)
	}
	_, need := n.c.View().HeldOn(e.Client, e.Lock)
	switch {
	case len(own) > 1 || len(own) == 1 && need > 1:
		return n.one(e, Claim{Kind: ClaimReleases, Nodes: own}, fact.Say("narrate.releases-on", who, lockName(e.Lock), nameList(own)))
	case len(own) == 1 || !wrote:
		return n.one(e, Claim{Kind: ClaimReleases, Nodes: own}, fact.Say("narrate.releases", who, lockName(e.Lock)))
	case len(others) > 0:
		return n.one(e, Claim{Kind: ClaimRemovedNot, Whose: others}, fact.Say("narrate.removed-not-own", who, lockName(e.Lock), nameList(others)), refs...)
	}
	return n.one(e, Claim{Kind: ClaimDeletedNone}, fact.Say("narrate.deletes-nothing", who))
}

// left reports whether who's hold of a key that stays left it with the
// change: who held it before and holds it no more.
func left(ch check.Change, who string) bool {
	for _, h := range ch.Before {
		if h.Who() == who && !slices.ContainsFunc(ch.After, func(a check.Holder) bool { return same(a, h) }) {
			return true
		}
	}
	return false
}
