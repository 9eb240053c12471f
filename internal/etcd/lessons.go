package etcd

import (
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// AlgorithmID is the id of etcd's lock among the algorithms
// (visualizer list --algorithms).
const AlgorithmID = "etcd-mutex"

// Library is the client library whose Mutex the lessons run as it is.
const Library = "go.etcd.io/etcd/client/v3 v3.7.3, Apache-2.0"

// Write is what a worker writes to the protected resource while it
// believes it holds the lock.
type Write int

// The writes a worker makes.
const (
	NoWrite Write = iota
	// Guarded is Txn().If(mutex.IsOwner()).Then(Put): the write lands only
	// while the worker's key is the lock's first (its create revision is
	// the lock's fencing token, checked by the store itself).
	Guarded
	// Plain is a Put: the store takes it from anyone.
	Plain
)

// Fault is what happens to a worker at one point of its program (its
// first round), through its proxy or its interceptor:
//
//   - sim.FaultPause: its program and its connection (its keep-alive with
//     it) freeze for For, as in a GC pause;
//   - sim.FaultPartition: its connection freezes for For, its program goes on;
//   - sim.FaultCrash: its process dies: its connection is closed, its
//     program ends, its lease runs out on the server;
//   - sim.FaultDropReply: the reply to its next request is lost (the
//     server ran the request).
type Fault struct {
	Kind sim.FaultKind
	At   string // the mark after which it happens: sim.MarkAcquired, sim.MarkEnter or AtWaiting
	For  time.Duration
}

// AtWaiting is a fault's moment when the worker's key is in the lock's
// queue (the server has put it) and its Lock() waits behind another's.
const AtWaiting = "waiting"

// Worker is one client: a session (a lease of the lesson's TTL) and a
// program that takes the lock Rounds times, works inside for Work, and
// writes the resource as Write says.
type Worker struct {
	Name   string
	Start  time.Duration // when it starts, after the run's start
	Rounds int           // how many times it takes the lock; 0 is 1
	Work   time.Duration // how long it stays inside
	Write  Write
	Fault  Fault // none when Kind is empty
}

// Lesson is one etcd lesson: workers running the real, unmodified
// concurrency.Mutex on one lock against a live server, and the verdicts
// the run must end with. The verdicts are stable because the margins are
// wide (a 3 s pause against a 1 s lease); the milliseconds are not.
type Lesson struct {
	ID      string
	Title   fact.Text
	Story   fact.Text
	Lease   int // the sessions' TTL, in whole seconds (etcd's unit)
	Expect  []string
	Workers []Worker
	// ServerPause, if set, stops the server (SIGSTOP of an etcd process
	// Lockstep starts for the run) for that long once the first worker has
	// entered its critical section, then resumes it (SIGCONT). The
	// embedded server is in this process and an external one is not
	// Lockstep's: such a lesson runs only on a process of its own
	// (StartProcess), and refuses an external server (ErrCannotPause).
	ServerPause time.Duration
	// ServerRestart, if set, kills the server (SIGKILL of the etcd process
	// Lockstep starts for the run) once the first worker has entered its
	// critical section, and starts it again that long after on the same
	// data directory and addresses. Like ServerPause it runs only on a
	// process of its own.
	ServerRestart time.Duration
}

// StopsServer says the lesson stops or kills its server, which only an
// etcd process Lockstep starts for the run allows.
func (l *Lesson) StopsServer() bool { return l.ServerPause > 0 || l.ServerRestart > 0 }

// ServerPauseTally is how etcd-server-pause's runs went on 2026-11-29
// (scripts/etcd-server-pause-series.sh 12, load average 21-24 on 2 cores):
// the server ended the healthy holder's lease after its resume in
// Dropped runs, the lease lived on in Kept, of Runs (see
// docs/services.md, The server's pause).
var ServerPauseTally = struct{ Dropped, Kept, Runs int }{Dropped: 12, Kept: 0, Runs: 12}

// ServerRestartTally is how etcd-server-restart's runs went on
// 2026-11-29 (scripts/etcd-server-restart-series.sh 10, load average 4-6.5
// on 2 cores, the server down 1.2-1.4s each time): the holder's lease
// lived through the restart in Kept runs, ended after it in Lost, of Runs
// (see docs/services.md, The server's restart). The other branch is
// reached on purpose by TestARestartPastTheClientsDeadlineLosesTheLease.
var ServerRestartTally = struct{ Kept, Lost, Runs int }{Kept: 10, Lost: 0, Runs: 10}

// Expected is the verdicts lesson l's run must end with, given its log.
// For a restart they depend on the branch the run took (its
// restart-outcome line): when the holder's lease ended after the restart,
// the waiter enters while the holder is still inside: mutual-exclusion.
// Every other run ends as l.Expect says.
func (l *Lesson) Expected(evs []sim.Event) []string {
	for i := range evs {
		e := &evs[i]
		if e.Kind == sim.KindSay && e.Name == SayRestartOutcome && e.Fact != nil && e.Fact.Key == fact.EtcdRestartLost {
			return []string{sim.VerdictMutualExclusion}
		}
	}
	return l.Expect
}

// The lessons' lock and resource, as the log names them.
const (
	LockName = "job"
	Resource = "account"
)

// Lessons are the etcd lessons, in the order they teach.
var Lessons = []Lesson{
	{
		ID:    "etcd-two-workers",
		Title: fact.Text{En: "etcd's Mutex: two workers take turns", Zh: "etcd 的 Mutex：两个 worker 轮流持锁"},
		Story: fact.Text{
			En: "A and B each take etcd's lock three times (the real concurrency.Mutex, a 1s lease kept alive by the client) and write the account with Txn If IsOwner. Each waiter puts its own key under job/; the one with the lowest create revision holds, the next watches the key before it. They never overlap.",
			Zh: "A 和 B 各自三次拿 etcd 的锁（真实的 concurrency.Mutex，1 秒租约由客户端续约），并用 Txn If IsOwner 写账户。每个等待者在 job/ 下放一个自己的键；create revision 最小的持有锁，下一个监视排在它前面的键。它们从不重叠。",
		},
		Lease:  1,
		Expect: []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Rounds: 3, Work: 100 * time.Millisecond, Write: Guarded},
			{Name: "B", Rounds: 3, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		ID:    "etcd-pause-past-lease",
		Title: fact.Text{En: "etcd's Mutex: a pause past the lease gives two holders", Zh: "etcd 的 Mutex：停顿超过租约，出现两个持有者"},
		Story: fact.Text{
			En: "A holds etcd's lock and stops the world for 3s inside (a GC pause: its program and its connection freeze, its keep-alive with them). The server ends A's 1s lease by its own clock and deletes A's key; B's watch fires and B enters while A is still inside. A's Session.Done fires by the client's own deadline, racing the server's: in some runs just before B has the lock, in others up to two seconds after (Jepsen, etcd 3.4.3: etcd's locks cannot guarantee mutual exclusion). Either way A's program, inside, never looks.",
			Zh: "A 持有 etcd 的锁，在临界区内停顿 3 秒（GC 停顿：程序和连接一起冻结，续约也冻结了）。服务器按自己的时钟结束 A 的 1 秒租约并删除 A 的键；B 的 watch 触发，B 在 A 仍在临界区内时进入。A 的 Session.Done 按客户端自己的截止时间触发，和服务器的时钟赛跑：有的运行里就在 B 拿到锁之前，有的运行里晚了将近两秒（Jepsen 对 etcd 3.4.3 的结论：etcd 的锁无法保证互斥）。无论哪种，临界区里的 A 的程序都不会去看它。",
		},
		Lease:  1,
		Expect: []string{sim.VerdictMutualExclusion},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: 3 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond},
		},
	},
	{
		ID:    "etcd-guarded-write",
		Title: fact.Text{En: "etcd's Mutex: Txn If IsOwner refuses the stale holder", Zh: "etcd 的 Mutex：Txn If IsOwner 拒绝过期的持有者"},
		Story: fact.Text{
			En: "A's Lock() returns, and A stops the world for 3s before it writes. Its 1s lease ends, B takes the lock and writes the account. A wakes up still believing it holds the lock and writes with Txn().If(mutex.IsOwner()).Then(Put): the comparison on its key's create revision (etcd's fencing token) fails, and nothing is written.",
			Zh: "A 的 Lock() 返回后，A 在写入前停顿了 3 秒。它的 1 秒租约结束，B 拿到锁并写了账户。A 醒来后仍以为自己持有锁，用 Txn().If(mutex.IsOwner()).Then(Put) 写入：对它的键的 create revision（etcd 的 fencing token）的比较失败，什么也没写。",
		},
		Lease:  1,
		Expect: []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Guarded, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkAcquired, For: 3 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		ID:    "etcd-plain-put",
		Title: fact.Text{En: "etcd's Mutex: a plain Put from the stale holder lands", Zh: "etcd 的 Mutex：过期持有者的普通 Put 落地了"},
		Story: fact.Text{
			En: "The same pause, and A writes with a plain Put. The store takes it: A's lease ended seconds ago and B has written since, but a Put checks nothing. The lock alone does not protect the account; the write must carry the check (Txn If IsOwner).",
			Zh: "同样的停顿，A 用普通的 Put 写入。存储接受了：A 的租约几秒前就结束了，B 也已经写过，但 Put 什么也不检查。光靠锁保护不了账户；写入本身必须带上检查（Txn If IsOwner）。",
		},
		Lease:  1,
		Expect: []string{sim.VerdictStaleWrite},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Plain, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkAcquired, For: 3 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		// etcd-io/etcd#11456's shape: a waiter whose own lease ends while it
		// waits. A holds for 3s. B queues behind A, and B's connection is
		// cut for 2s (its keep-alive and its watch freeze, its program
		// waits in Lock()): B's 1s lease ends on the server and its key is
		// deleted, while A still holds. C queues behind A at 2.5s, after
		// B's key is gone. A unlocks: B's watch (healed) sees A's key go
		// and its Lock() goes on. Argued before running, from mutex.go of
		// v3.7.3: after waitDeletes, Lock() gets its own key and, finding
		// none, returns ErrSessionExpired, so B gives up; C, the lowest
		// key left, holds alone: safe. The client of #11456 (etcd 3.4.3)
		// returned from Lock() without that Get: B would have entered with
		// its key gone, beside C: mutual-exclusion.
		ID:    "etcd-waiter-lease-expired",
		Title: fact.Text{En: "etcd's Mutex: a waiter whose lease ended is told so (etcd-io/etcd#11456)", Zh: "etcd 的 Mutex：租约已过期的等待者会被告知（etcd-io/etcd#11456）"},
		Story: fact.Text{
			En: "B waits behind A, and B's connection is cut for 2s: its 1s lease ends on the server, which deletes B's key while B is still blocked in Lock(). C queues after that. When A unlocks, B's wait ends. In etcd 3.4.3 (Jepsen, etcd-io/etcd#11456) Lock() then returned: B was told it held the lock with its own lease gone, beside C. The client here (v3.7.3) gets B's key first, finds it gone and returns ErrSessionExpired: B gives up, C holds alone. The check narrows the gap, it does not close it: a lease may still end between that Get and B's first write, which is why the write carries Txn If IsOwner.",
			Zh: "B 排在 A 后面等待，B 的连接被切断 2 秒：它的 1 秒租约在服务器上结束，服务器在 B 仍阻塞在 Lock() 里时删除了 B 的键。C 在那之后排队。A 解锁时，B 的等待结束。在 etcd 3.4.3 中（Jepsen，etcd-io/etcd#11456），Lock() 此时直接返回：B 被告知持有锁，而它自己的租约已经没了，和 C 同时持锁。这里的客户端（v3.7.3）先读取 B 自己的键，发现它没了，返回 ErrSessionExpired：B 放弃，C 独自持锁。这个检查缩小了窗口但没有消除它：租约仍可能在这次 Get 和 B 的第一次写入之间结束，所以写入要带上 Txn If IsOwner。",
		},
		Lease:  1,
		Expect: []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 3 * time.Second, Write: Guarded},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded, Fault: Fault{Kind: sim.FaultPartition, At: AtWaiting, For: 2 * time.Second}},
			{Name: "C", Start: 2500 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		// A enters and works 6s; while it is inside, the server process is
		// stopped for 3s (3x the 1s lease). Argued before running: etcd's
		// lessor ends leases by the server's wall clock, which runs on
		// while the process is stopped; on the resume every lease whose
		// end has passed is expired, and a keep-alive that reaches it late
		// cannot save it (lessor.Renew waits for an expired lease's
		// revocation and answers lease-not-found). So A's lease is revoked
		// within about 0.5s of the resume (the lessor's check) and its key
		// is deleted while A, never paused itself, is still inside. A's
		// client gave up first: its keep-alive's own deadline (the last
		// reply plus the TTL) passed about 1s into the stop, so
		// Session.Done fires while the server is stopped. B starts 4.5s in
		// (after the resume and the revocation, or just before: then it
		// waits on A's key and gets the lock when it is deleted), takes the
		// free lock and enters while A is inside (A leaves 6s after it
		// entered): mutual-exclusion. A's guarded write at the end is
		// refused (its key is gone), B's lands: nothing stale, so no
		// stale-write.
		ID:    "etcd-server-pause",
		Title: fact.Text{En: "etcd's Mutex: a server pause past the lease drops a healthy holder's lock", Zh: "etcd 的 Mutex：服务器停顿超过租约，健康持有者的锁被丢掉"},
		Story: fact.Text{
			En: "A holds etcd's lock and works inside; A itself never stops. The etcd server's process is stopped (SIGSTOP) for 3s and resumed. The server ends leases by its own wall clock, which ran on while it was stopped: on the resume A's 1s lease is long past its end, A's late keep-alive cannot renew it, and the server deletes A's key. B arrives, finds the lock free and enters while A is still inside. A's Session.Done fired during the stop (its client's own deadline); its program, inside, never looks. A's Txn If IsOwner at the end is refused.",
			Zh: "A 持有 etcd 的锁在临界区内工作；A 自己从未停顿。etcd 服务器进程被停住（SIGSTOP）3 秒后恢复。服务器按自己的墙上时钟结束租约，而这个时钟在它停住时照常走：恢复时 A 的 1 秒租约早已到期，A 迟到的续约无法再续上，服务器删除了 A 的键。B 到来，发现锁是空的，在 A 仍在临界区内时进入。A 的 Session.Done 在停住期间就触发了（客户端自己的截止时间）；临界区里的 A 的程序从不去看它。A 最后用 Txn If IsOwner 写入被拒绝。",
		},
		Lease:       1,
		ServerPause: 3 * time.Second,
		Expect:      []string{sim.VerdictMutualExclusion},
		Workers: []Worker{
			{Name: "A", Work: 6 * time.Second, Write: Guarded},
			{Name: "B", Start: 4500 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		// A enters and works 5s under a 5s lease; B queues behind it. The
		// server process is killed (SIGKILL) as A enters and started again
		// 1s later on the same data directory. Argued before running, from
		// the server's lessor (Debian's etcd-server 3.4.23, the same in
		// v3.6) and v3.7.3's client: leases are stored in the
		// backend with the keys, so the restarted server reads A's lease
		// back (lessor.initAndRecover, its expiry unset until a leader
		// exists), and on becoming leader lessor.Promote refreshes every
		// lease to now + its TTL (+ the election timeout): a restart never
		// ends a lease early, unlike the pause, whose clock ran on. A's
		// client sends a keep-alive every TTL/3 and gives the lease up on
		// its own deadline, its last reply + the TTL: at least 3.3s after
		// the crash. Its keep-alive stream fails during the outage and
		// retries every 0.5s (retryConnWait), behind gRPC's reconnect
		// back-off (1s, x1.6); the server is back about 1.5s after the
		// crash, so a keep-alive gets through before that deadline: A's
		// lease lives on, B's watch resumes on the same key and B enters
		// only after A unlocks: safe. The other branch, if the outage plus
		// the back-off outlast the client's deadline: A's Session.Done
		// fires, its client renews no more, the server ends the lease one
		// TTL after the restart and B enters beside A: mutual-exclusion.
		ID:            "etcd-server-restart",
		Title:         fact.Say("etcd.restart-title"),
		Story:         fact.Say("etcd.restart-story"),
		Lease:         5,
		ServerRestart: time.Second,
		Expect:        []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 5 * time.Second, Write: Guarded},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
}

// Find is the lesson with this id.
func Find(id string) (*Lesson, bool) {
	for i := range Lessons {
		if Lessons[i].ID == id {
			return &Lessons[i], true
		}
	}
	return nil, false
}
