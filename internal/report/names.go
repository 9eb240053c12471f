package report

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// names are the locks as the card names them to a reader: a few words in
// each language, where lock.Info.Title says how the lock works in a
// sentence of English and the id is what a scenario file writes.
var names = map[string]sim.Text{
	"no-lock":                fact.Say("report.name.no-lock"),
	"local-mutex":            fact.Say("report.name.local-mutex"),
	"watch-multi-exec":       fact.Say("report.name.watch-multi-exec"),
	"setnx-no-expiry":        fact.Say("report.name.setnx-no-expiry"),
	"setnx-then-expire":      fact.Say("report.name.setnx-then-expire"),
	"setnx-getset-timestamp": fact.Say("report.name.setnx-getset-timestamp"),
	"set-nx-ex-blind-del":    fact.Say("report.name.set-nx-ex-blind-del"),
	"owner-check-get-del":    fact.Say("report.name.owner-check-get-del"),
	"lua-compare-delete":     fact.Say("report.name.lua-compare-delete"),
	"watch-release":          fact.Say("report.name.watch-release"),
	"reentrant-hash":         fact.Say("report.name.reentrant-hash"),
	"reentrant-thread-id":    fact.Say("report.name.reentrant-thread-id"),
	"watchdog":               fact.Say("report.name.watchdog"),
	"replica-failover":       fact.Say("report.name.replica-failover"),
	"redlock":                fact.Say("report.name.redlock"),
	"fencing-token":          fact.Say("report.name.fencing-token"),
	"mysql-unique-key":       fact.Say("report.name.mysql-unique-key"),
	"redsync":                fact.Say("report.name.redsync"),
	"redislock":              fact.Say("report.name.redislock"),
}

// Name is a lock's name in words, in both languages; a lock the card has
// no name for is named by its id.
func Name(algorithm string) sim.Text {
	if n, ok := names[algorithm]; ok {
		return n
	}
	if n, ok := liveNames[algorithm]; ok {
		return n
	}
	return sim.Text{En: algorithm, Zh: algorithm}
}

// Within says the bound a row's ✓ holds within, read from the scenario
// its cells run (Template): how many clients, how many requests each, and
// the lease, when the lock is given one. Short is the card's mark beside
// a ✓ ("2×1 · 1s"), Long the same in words.
func (r *Row) Within() (short, long sim.Text) {
	a, ok := lock.Lookup(r.Algorithm)
	if !ok || r.Probe == nil {
		return sim.Text{}, sim.Text{}
	}
	sc := Template(a, &Columns[0], r.Probe)
	clients, requests := len(sc.Clients), 1
	leased := false
	for _, c := range sc.Clients {
		requests = max(requests, c.Requests)
		for _, v := range c.Params {
			leased = leased || v == Lease.String()
		}
	}
	short = sim.Text{En: fmt.Sprintf("%d×%d", clients, requests), Zh: fmt.Sprintf("%d×%d", clients, requests)}
	long = fact.Say("report.within", clients, noun(clients, "client", "clients"), requests, noun(requests, "request", "requests"))
	if leased {
		// the lease as each language writes it: "1s", and seconds in Chinese
		lease := fact.Text{En: Lease.String(), Zh: fmt.Sprintf("%g", Lease.Seconds())}
		short = fact.Text{En: short.En + fact.Say("report.within-lease-short", lease).En, Zh: short.Zh + fact.Say("report.within-lease-short", lease).Zh}
		long = fact.Text{En: long.En + fact.Say("report.within-lease", lease).En, Zh: long.Zh + fact.Say("report.within-lease", lease).Zh}
	}
	return short, long
}
