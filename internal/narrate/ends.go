package narrate

// The ends of things no client's release made: a lock key that went by
// itself, a release that found nothing to release, a program that stopped
// on an error.

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// how says how the keys of a gone line went.
type how int

const (
	goneExpires how = iota // its TTL ran out
	goneLost               // a fault took it (a node back empty, a failover)
	goneSwept              // a service's cleanup job deleted it
)

// gone tells of the locks an event took away without a client's command:
// an expiry, a cleanup job, a node that came back without its keys.
func (n *Narrator) gone(e *sim.Event, h how) []Line {
	var out []Line
	for _, ch := range n.c.Changes() {
		if !ch.IsLock || ch.Removed || !ch.Existed || ch.Exists || len(ch.Before) == 0 {
			continue
		}
		var owners []string
		for _, h := range ch.Before {
			owners = appendNew(owners, h.Client)
		}
		var inside []string
		for _, o := range owners {
			if n.c.View().Inside(o) {
				inside = append(inside, o)
			}
		}
		var t fact.Text
		switch {
		case h == goneSwept && len(inside) > 0:
			t = fact.Say("narrate.swept-inside", lockOf(owners, ch.Key, ch.Node), nameList(inside), isAre(len(inside)))
		case h == goneSwept:
			t = fact.Say("narrate.swept", lockOf(owners, ch.Key, ch.Node))
		case h == goneExpires && len(inside) > 0:
			t = fact.Say("narrate.expires-inside", lockOf(owners, ch.Key, ch.Node), nameList(inside), isAre(len(inside)))
		case h == goneExpires:
			t = fact.Say("narrate.expires", lockOf(owners, ch.Key, ch.Node))
		case len(inside) > 0:
			t = fact.Say("narrate.gone-inside", lockOf(owners, ch.Key, ch.Node), nameList(inside), isAre(len(inside)))
		default:
			t = fact.Say("narrate.gone", lockOf(owners, ch.Key, ch.Node))
		}
		out = append(out, Line{Text: t, Refs: []int{e.Seq},
			Claim: Claim{Kind: ClaimExpires, Lock: ch.Lock, Node: ch.Node, Key: ch.Key, Whose: owners, Inside: inside}})
	}
	return out
}

// refused tells a release the lock turned down: it found the lock held by
// another, or no lock at all (a DELETE by name that found no row, a
// compare-and-delete on a key that is gone). Which, the model says: a
// release that checks no owner finds nothing to refuse but an absent key.
func (n *Narrator) refused(e *sim.Event) []Line {
	who := e.Who()
	v := n.c.View()
	held := slices.ContainsFunc(v.Held(), func(k check.Change) bool {
		return k.IsLock && k.Lock == e.Lock && !v.Down(k.Node) && v.Serving(k.Node)
	})
	if !held {
		return n.one(e, Claim{Kind: ClaimFoundNone}, fact.Say("narrate.release-finds-none", who))
	}
	return n.one(e, Claim{Kind: ClaimRefused}, fact.Say("narrate.release-refused", who))
}

// ended tells a thread whose program stopped on an error (a Redis error
// its code does not handle): the end of its critical section, when it was
// inside, with no release.
func (n *Narrator) ended(e *sim.Event) []Line {
	who, w := e.Who(), e.Words()
	inside := n.in[who]
	delete(n.in, who)
	if !e.Failed() {
		return nil
	}
	if f := e.Fact; f.Key == fact.Failed && f.Reason == nil {
		w.Zh = f.Text // the error's own words, without the "error:" the catalogue puts before them (fact.Failed), which the sentence already says
	}
	if inside {
		return n.one(e, Claim{Kind: ClaimEnds, Inside: []string{who}}, fact.Say("narrate.stops-on-error-inside", who, w))
	}
	return n.one(e, Claim{Kind: ClaimEnds}, fact.Say("narrate.stops-on-error", who, w))
}

// orphan tells, once, of a watchdog that renews a lock for a thread that
// died on an error: nobody will ever release the lock it keeps alive.
func (n *Narrator) orphan(e *sim.Event, f *fact.Fact) []Line {
	if f.Key != fact.RenewedOrphan || n.orphans[e.Who()] {
		return nil
	}
	n.orphans[e.Who()] = true
	return n.one(e, Claim{}, fact.Say("narrate.orphan-watchdog", e.Client, lockName(e.Lock)))
}
