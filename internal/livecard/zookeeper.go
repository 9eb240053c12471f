package livecard

import (
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// zkRow is ZooKeeper's lock recipe (ephemeral sequential nodes, each
// waiter watching its predecessor, the protected create) writing the
// resource with w: a plain setData, or a write fenced by the lock node's
// creation zxid, which the resource refuses when it has taken a higher
// one.
func zkRow(w zookeeper.Write) Row {
	fenced := w == zookeeper.Fenced
	r := Row{Algorithm: zookeeper.AlgorithmID, Variant: "setData", service: "zookeeper", Storage: fenced,
		Title:  "ZooKeeper's lock recipe on " + zookeeper.Library + ", each holder writing the resource with a plain setData",
		Needs:  []sim.Text{fact.Say("livecard.zookeeper.needs-ensemble")},
		Advice: fact.Say("livecard.zookeeper.advice-setdata"),
	}
	if fenced {
		r.Variant = "czxid token"
		r.Title = "ZooKeeper's lock recipe on " + zookeeper.Library + ", each holder writing the resource with its lock node's creation zxid as a fencing token"
		r.Needs = append(r.Needs, fact.Say("livecard.zookeeper.needs-fenced-resource"))
		r.Advice = fact.Say("livecard.zookeeper.advice-token")
	}
	pair := func(f zookeeper.Fault) *zookeeper.Lesson {
		return &zookeeper.Lesson{ID: "card-zookeeper-lock", Session: zkSession, Workers: []zookeeper.Worker{
			{Name: "A", Work: work, Write: w, Fault: f},
			{Name: "B", Start: bStarts, Work: work, Write: w},
		}}
	}
	either := func(plain, token string) string {
		if fenced {
			return token
		}
		return plain
	}
	cells := map[string]Cell{
		// Two workers, twice each, no fault: the lowest node holds and the
		// next waits on its predecessor's deletion (measured: the
		// zookeeper-two-workers lesson, safe 20 of 20). Argued: unbroken.
		"contention": {ZooKeeper: &zookeeper.Lesson{ID: "card-zookeeper-lock", Session: zkSession, Workers: []zookeeper.Worker{
			{Name: "A", Rounds: 2, Work: work, Write: w}, {Name: "B", Rounds: 2, Work: work, Write: w}}},
			Placement: fact.Say("livecard.zookeeper.contention"),
			Argued:    report.Unbroken},
		// The reply to A's create of its lock node is lost and that
		// connection breaks (the node was made). Either the node outlives
		// A's reconnection and the recipe's protected create finds it by
		// its GUID (ZOOKEEPER-1262's fix), or, as a probe of one run
		// showed on this loaded machine, A's 500ms session ends while it
		// reconnects, its node goes with it, B takes the lock, and A
		// creates a new node after B. No orphan blocks B and nobody is
		// inside with anyone. Argued: unbroken.
		"lost-reply": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultDropReply, At: zookeeper.AsItAsks}),
			Placement: fact.Say("livecard.zookeeper.lost-reply"),
			Argued:    report.Unbroken},
		// A freezes 2s as it enters (its pings stop): the server expires
		// its 500ms session and deletes its node, B takes the lock and
		// writes while A is inside. A's plain setData lands after B's
		// (mutual-exclusion, stale-write: the zookeeper-frozen-holder
		// lesson, 20 of 20); a write fenced by A's czxid is below B's and
		// refused. Argued: broke (setData), unbroken at the resource
		// (token).
		"pause": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: zkFreeze}),
			Placement: fact.Say("livecard.zookeeper.pause"),
			Argued:    either(report.Broke, report.Unbroken)},
		// A's process dies as it enters: its connection closes, it never
		// closes its session, the server expires it and deletes A's node;
		// B then takes the lock alone. Argued: unbroken.
		"crash": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultCrash, At: sim.MarkEnter}),
			Placement: fact.Say("livecard.zookeeper.crash"),
			Argued:    report.Unbroken},
		// A's connection is held for 2s as it enters, its program goes
		// on: its session expires, B takes the lock and writes while A is
		// still inside (mutual-exclusion). A's write waits on the held
		// link and is asked again until it heals: a plain setData then
		// lands after B's (stale-write), a fenced one is refused. Argued:
		// broke (setData), unbroken at the resource (token).
		"partition": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultPartition, At: sim.MarkEnter, For: zkFreeze}),
			Placement: fact.Say("livecard.zookeeper.partition"),
			Argued:    either(report.Broke, report.Unbroken)},
	}
	r.Cells = notApplicable("zookeeper", cells)
	return r
}
