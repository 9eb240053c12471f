package compare

import (
	"slices"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// Pair is a comparison that comes ready: a lesson and what to compare it
// with (an algorithm, or a lesson with the same clients).
type Pair struct {
	Left  string   // a lesson id
	With  string   // an algorithm id or a lesson id
	Title sim.Text // what the pair shows
}

// Pairs are the canonical comparisons, one per fix the catalog teaches.
var Pairs = []Pair{
	{Left: "blind-del-slow-release", With: "lua-cad-slow-release", Title: fact.Say("compare.pair.blind-del")},
	{Left: "owner-check-expire-between", With: "lua-compare-delete", Title: fact.Say("compare.pair.get-then-del")},
	{Left: "lease-pause-stale-write", With: "fencing-token-rejects-stale", Title: fact.Say("compare.pair.fencing")},
	{Left: "failover-lost-lock", With: "failover-wait-replica", Title: fact.Say("compare.pair.failover-wait")},
	{Left: "thread-id-two-instances", With: "thread-id-uuid-fix", Title: fact.Say("compare.pair.thread-id")},
}

// Partner is the canonical comparison of a scenario: what to compare it
// with when it is the left of a pair, or the pair's left when it is the
// right of one.
func Partner(id string) (with string, ok bool) {
	for _, p := range Pairs {
		switch id {
		case p.Left:
			return p.With, true
		case p.With:
			return p.Left, true
		}
	}
	return "", false
}

// Family is a group of algorithms the picker shows together: the catalog's
// rows from First to Last.
type Family struct {
	Title       sim.Text
	First, Last int
}

// Families group the catalog's rows for the picker, in catalog order.
var Families = []Family{
	{fact.Say("compare.family.no-lock"), 1, 3},
	{fact.Say("compare.family.setnx"), 4, 7},
	{fact.Say("compare.family.own-release"), 8, 10},
	{fact.Say("compare.family.reentrant"), 11, 13},
	{fact.Say("compare.family.several-nodes"), 14, 15},
	{fact.Say("compare.family.fencing-sql"), 16, 17},
	{fact.Say("compare.family.libraries"), 18, 19},
}

// Group is a family's algorithms, by id, as the picker lists them.
type Group struct {
	Title sim.Text `json:"title"`
	IDs   []string `json:"ids"`
}

// Groups puts every registered algorithm in its family, in catalog order;
// an algorithm outside the catalog's rows (a library's) goes to a last
// group.
func Groups() []Group {
	out := make([]Group, len(Families))
	more := Group{Title: fact.Say("compare.family.more")}
	for _, a := range lock.Algorithms {
		i := slices.IndexFunc(Families, func(f Family) bool { return a.Row >= f.First && a.Row <= f.Last })
		if i < 0 {
			more.IDs = append(more.IDs, a.ID)
			continue
		}
		out[i].Title, out[i].IDs = Families[i].Title, append(out[i].IDs, a.ID)
	}
	out = slices.DeleteFunc(out, func(g Group) bool { return len(g.IDs) == 0 })
	if len(more.IDs) > 0 {
		out = append(out, more)
	}
	return out
}
