package narrate

// What a client's commands do to other clients' locks: a key removed or
// overwritten under its holder.

import (
	"slices"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// exec tells what a client's command did to another's lock, and keeps
// what it did to lock keys for the release that follows.
func (n *Narrator) exec(e *sim.Event) []Line {
	if e.Client == "" || !sim.Writes(e.Cmd) {
		return nil
	}
	cmd := e.Cmd[0]
	if e.Script != "" {
		cmd = e.Script
	}
	var out []Line
	for _, ch := range n.c.Changes() {
		if !ch.IsLock {
			continue
		}
		n.wrote[e.Who()] = append(n.wrote[e.Who()], ch)
		switch {
		case ch.Removed:
			if victims := victims(ch.Before, func(h check.Holder) bool { return same(h, ch.By) }, e.Client); len(victims) > 0 {
				out = append(out, Line{Text: fact.Say("narrate.removes", e.Who(), cmd, lockOf(victims, ch.Key, ch.Node)), Refs: []int{e.Seq},
					Claim: Claim{Kind: ClaimRemoves, Who: e.Who(), Lock: ch.Lock, Node: ch.Node, Key: ch.Key, Whose: victims}})
			}
		case ch.Exists && ch.Moved:
			// an overwrite: holders of other clients the key no longer has
			kept := func(h check.Holder) bool {
				return h.Client == e.Client || slices.ContainsFunc(ch.After, func(a check.Holder) bool { return same(a, h) })
			}
			if victims := victims(ch.Before, kept, e.Client); len(victims) > 0 {
				out = append(out, Line{Text: fact.Say("narrate.overwrites", e.Who(), cmd, lockOf(victims, ch.Key, ch.Node)), Refs: []int{e.Seq},
					Claim: Claim{Kind: ClaimOverwrites, Who: e.Who(), Lock: ch.Lock, Node: ch.Node, Key: ch.Key, Whose: victims}})
			}
		}
	}
	return out
}

// victims names the holders a command took a key from (all but those
// spared): by client, or by thread when the command came from another
// thread of the same client.
func victims(before []check.Holder, spared func(check.Holder) bool, by string) []string {
	var out []string
	for _, h := range before {
		if spared(h) {
			continue
		}
		name := h.Client
		if h.Client == by {
			name = h.Who()
		}
		out = appendNew(out, name)
	}
	return out
}

// same reports whether two holders are one thread of one incarnation.
func same(a, b check.Holder) bool { return a.Who() == b.Who() && a.Incarnation == b.Incarnation }
