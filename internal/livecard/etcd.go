package livecard

import (
	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
)

// etcdRow is etcd's concurrency.Mutex writing the resource with w: a
// plain Put, or Txn().If(mutex.IsOwner()).Then(Put), which the store
// takes only while the writer's key is still the lock's first (its create
// revision is the fencing token, checked by etcd itself).
func etcdRow(w etcd.Write) Row {
	guarded := w == etcd.Guarded
	r := Row{Algorithm: etcd.AlgorithmID, Variant: "Put", service: "etcd", Storage: guarded,
		Title:  "etcd's concurrency.Mutex (" + etcd.Library + "), each holder writing the resource with a plain Put",
		Needs:  []sim.Text{fact.Say("livecard.etcd.needs-cluster")},
		Advice: fact.Say("livecard.etcd.advice-put"),
	}
	if guarded {
		r.Variant = "Txn If IsOwner"
		r.Title = "etcd's concurrency.Mutex (" + etcd.Library + "), each holder writing the resource with Txn().If(mutex.IsOwner()).Then(Put)"
		r.Needs = append(r.Needs, fact.Say("livecard.etcd.needs-guarded-writes"))
		r.Advice = fact.Say("livecard.etcd.advice-txn")
	}
	pair := func(f etcd.Fault) *etcd.Lesson {
		return &etcd.Lesson{ID: "card-etcd-mutex", Lease: etcdLease, Workers: []etcd.Worker{
			{Name: "A", Work: work, Write: w, Fault: f},
			{Name: "B", Start: bStarts, Work: work, Write: w},
		}}
	}
	either := func(plain, txn string) string {
		if guarded {
			return txn
		}
		return plain
	}
	cells := map[string]Cell{
		// Two workers, twice each, no fault: B's key has the higher create
		// revision and B waits on A's key's deletion; the Mutex's queue
		// never lets both in (measured: the etcd-two-workers lesson, safe
		// 20 of 20). Argued: unbroken.
		"contention": {Etcd: &etcd.Lesson{ID: "card-etcd-mutex", Lease: etcdLease, Workers: []etcd.Worker{
			{Name: "A", Rounds: 2, Work: work, Write: w}, {Name: "B", Rounds: 2, Work: work, Write: w}}},
			Placement: fact.Say("livecard.etcd.contention"),
			Argued:    report.Unbroken},
		// The reply to A's write is lost (its client's interceptor drops
		// it: the write ran): A's program sees an error and ends, closing
		// its session, which revokes its lease and frees the lock for B.
		// The write landed while A held the lock; nobody else was inside.
		// Argued: unbroken.
		"lost-reply": {Etcd: pair(etcd.Fault{Kind: sim.FaultDropReply, At: sim.MarkEnter}),
			Placement: fact.Say("livecard.etcd.lost-reply"),
			Argued:    report.Unbroken},
		// A's program and connection freeze 3s as it enters (its
		// keep-alive with them): the server ends its 1s lease and deletes
		// its key, B's watch fires and B enters while A is inside. With a
		// Put, A's late write lands after B's: mutual-exclusion and
		// stale-write (FINDINGS: A learns up to 0.9s after B acquired, 5 of
		// 7 runs late). With Txn If IsOwner the late write is refused:
		// two inside, but nothing stale reaches the resource. Argued:
		// broke (Put), unbroken at the resource (Txn).
		"pause": {Etcd: pair(etcd.Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: etcdFreeze}),
			Placement: fact.Say("livecard.etcd.pause"),
			Argued:    either(report.Broke, report.Unbroken)},
		// A's process dies as it enters: its connection closes, its
		// keep-alive stops, and the server ends its lease about a second
		// later; B then takes the lock. Nobody is inside with B. Argued:
		// unbroken.
		"crash": {Etcd: pair(etcd.Fault{Kind: sim.FaultCrash, At: sim.MarkEnter}),
			Placement: fact.Say("livecard.etcd.crash"),
			Argued:    report.Unbroken},
		// A's connection is held for 3s as it enters, its program goes
		// on: its write waits on the held connection while its lease
		// ends and B takes the lock and writes; then A's write arrives.
		// A Put lands after B's (mutual-exclusion, stale-write); a Txn If
		// IsOwner is judged when it arrives, A's key gone, and refused.
		// Argued: broke (Put), unbroken at the resource (Txn).
		"partition": {Etcd: pair(etcd.Fault{Kind: sim.FaultPartition, At: sim.MarkEnter, For: etcdFreeze}),
			Placement: fact.Say("livecard.etcd.partition"),
			Argued:    either(report.Broke, report.Unbroken)},
	}
	r.Cells = notApplicable("etcd", cells)
	return r
}
