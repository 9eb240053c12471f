package narrate

import (
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
)

// joined joins names with sep, each language with its own: sep is a
// word of the catalogue (a comma in English, an enumeration comma in Chinese).
func joined(sep fact.Text, names []string) fact.Text {
	return fact.Text{En: strings.Join(names, sep.En), Zh: strings.Join(names, sep.Zh)}
}

// joinedTexts joins sentences' parts with sep, each language with its
// own.
func joinedTexts(sep fact.Text, parts []fact.Text) fact.Text {
	var out fact.Text
	for i, p := range parts {
		if i > 0 {
			out.En, out.Zh = out.En+sep.En, out.Zh+sep.Zh
		}
		out.En, out.Zh = out.En+p.En, out.Zh+p.Zh
	}
	return out
}

// nameList is a list of clients or threads: "A, B".
func nameList(names []string) fact.Text {
	return joined(fact.Say("narrate.names-sep"), names)
}

// ownerList is a list of a lock's owners, said before "'s": "A's and B"
// (the sentence adds the last "'s").
func ownerList(owners []string) fact.Text {
	return joined(fact.Say("narrate.owners-sep"), owners)
}

// lockOf names clients' lock on a key: "A's lock on redis", or "A's lock
// (key lock:token) on redis" for a key not named lock.
func lockOf(owners []string, key, node string) fact.Text {
	if key == "lock" {
		return fact.Say("narrate.lock-of", ownerList(owners), node)
	}
	return fact.Say("narrate.lock-of-key", ownerList(owners), key, node)
}

// lockName names a lock in a sentence: "the lock", or "the lock
// lock:book" for a lock not named lock.
func lockName(l string) fact.Text {
	if l == "" || l == "lock" {
		return fact.Say("narrate.the-lock")
	}
	return fact.Say("narrate.the-lock-named", l)
}

func nodes(n int) string {
	if n == 1 {
		return "node"
	}
	return "nodes"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// clientOf is the client part of who (A of A/req2).
func clientOf(who string) string {
	c, _, _ := strings.Cut(who, "/")
	return c
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
