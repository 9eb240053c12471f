package livecard

import (
	"github.com/lockstep/lockstep/internal/etcd"
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
		Title: "etcd's concurrency.Mutex (" + etcd.Library + "), each holder writing the resource with a plain Put",
		Needs: []sim.Text{{En: "an etcd cluster", Zh: "一个 etcd 集群"}},
		Advice: sim.Text{
			En: "Two holders at once when the holder stalls past its lease, and a plain Put from the stale holder lands: the lock alone does not protect the write. Write with Txn If IsOwner.",
			Zh: "持有者停顿超过租约时会同时出现两个持有者，过期持有者的普通 Put 照样落地：光靠锁保护不了写入。请用 Txn If IsOwner 写入。"},
	}
	if guarded {
		r.Variant = "Txn If IsOwner"
		r.Title = "etcd's concurrency.Mutex (" + etcd.Library + "), each holder writing the resource with Txn().If(mutex.IsOwner()).Then(Put)"
		r.Needs = append(r.Needs, sim.Text{En: "every write guarded by the lock key's create revision (Txn If IsOwner)", Zh: "每次写入都由锁键的 create revision 保护（Txn If IsOwner）"})
		r.Advice = sim.Text{
			En: "Safe at the resource in every run: a stalled holder may still believe it holds, but its Txn If IsOwner is refused once its key is gone. Use it for every write the lock protects.",
			Zh: "每次运行在资源处都是安全的：停顿的持有者也许仍以为自己持有锁，但它的键一旦被删，Txn If IsOwner 就被拒绝。锁保护的每次写入都这样写。"}
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
			Placement: sim.Text{En: "A and B take the lock twice each, 1s leases, no fault", Zh: "A 和 B 各拿两次锁，1 秒租约，没有故障"},
			Argued:    report.Unbroken},
		// The reply to A's write is lost (its client's interceptor drops
		// it: the write ran): A's program sees an error and ends, closing
		// its session, which revokes its lease and frees the lock for B.
		// The write landed while A held the lock; nobody else was inside.
		// Argued: unbroken.
		"lost-reply": {Etcd: pair(etcd.Fault{Kind: sim.FaultDropReply, At: sim.MarkEnter}),
			Placement: sim.Text{En: "the reply to A's write, inside, is lost (the write ran)", Zh: "A 在临界区内写入的回复丢失（写入已执行）"},
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
			Placement: sim.Text{En: "A stops the world for 3s (3× its 1s lease) as it enters: its program, its connection and its keep-alive freeze",
				Zh: "A 进入临界区时整个进程停顿 3 秒（1 秒租约的 3 倍）：程序、连接和续约一起冻结"},
			Argued: either(report.Broke, report.Unbroken)},
		// A's process dies as it enters: its connection closes, its
		// keep-alive stops, and the server ends its lease about a second
		// later; B then takes the lock. Nobody is inside with B. Argued:
		// unbroken.
		"crash": {Etcd: pair(etcd.Fault{Kind: sim.FaultCrash, At: sim.MarkEnter}),
			Placement: sim.Text{En: "A's process dies as it enters (its lease runs out on the server)", Zh: "A 进入临界区时进程死掉（它的租约在服务器上耗尽）"},
			Argued:    report.Unbroken},
		// A's connection is held for 3s as it enters, its program goes
		// on: its write waits on the held connection while its lease
		// ends and B takes the lock and writes; then A's write arrives.
		// A Put lands after B's (mutual-exclusion, stale-write); a Txn If
		// IsOwner is judged when it arrives, A's key gone, and refused.
		// Argued: broke (Put), unbroken at the resource (Txn).
		"partition": {Etcd: pair(etcd.Fault{Kind: sim.FaultPartition, At: sim.MarkEnter, For: etcdFreeze}),
			Placement: sim.Text{En: "A's link to etcd is cut for 3s as it enters; its program goes on, its write waits on the link",
				Zh: "A 进入临界区时它到 etcd 的链路断开 3 秒；程序继续，写入在链路上等待"},
			Argued: either(report.Broke, report.Unbroken)},
	}
	r.Cells = notApplicable("etcd", cells)
	return r
}
