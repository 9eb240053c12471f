package zookeeper

import (
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// AlgorithmID is the id of ZooKeeper's lock among the algorithms
// (visualizer list --algorithms).
const AlgorithmID = "zookeeper-lock"

// Library is the client library whose connection the lessons use; the
// recipe is its Lock's, with the fencing token in view (Mutex).
const Library = "github.com/go-zookeeper/zk v1.0.4, BSD-3-Clause"

// Write is what a worker writes to the protected resource, a node beside
// the lock, while it believes it holds the lock.
type Write int

// The writes a worker makes.
const (
	NoWrite Write = iota
	// Fenced writes with the holder's token, its lock node's creation
	// zxid: the resource keeps the highest token it has taken, and a write
	// with a lower one is refused. The comparison and the write are one
	// conditional setData (on the node's version), so nothing slips in
	// between them.
	Fenced
	// Plain is a setData of any version: ZooKeeper takes it from anyone.
	Plain
)

// Fault is what happens to a worker at one point of its program (its
// first round), through its proxy:
//
//   - sim.FaultPause freezes its program and its connection for For (its
//     pings stop, and the server expires its session by its own clock), as
//     in a GC pause;
//   - sim.FaultPartition holds its connection for For, its program goes on
//     (its requests wait on the held connection);
//   - sim.FaultCrash: its process dies: its connection closes and it sends
//     nothing more, and its session ends by the server's clock;
//   - sim.FaultDropReply: the reply to its next create (its lock node's,
//     placed AsItAsks) is lost and that connection breaks: the node was
//     made, the client learns only that its connection closed.
type Fault struct {
	Kind sim.FaultKind
	At   string // sim.MarkAcquired, sim.MarkEnter, or AsItAsks
	For  time.Duration
}

// AsItAsks places a fault as the worker asks for the lock, before its
// create (its first round).
const AsItAsks = "ask"

// Worker is one client: a session of the lesson's timeout and a program
// that takes the lock Rounds times, works inside for Work, and writes the
// resource as Write says.
type Worker struct {
	Name   string
	Start  time.Duration // when it starts, after the run's start
	Rounds int           // how many times it takes the lock; 0 is 1
	Work   time.Duration // how long it stays inside
	Write  Write
	Fault  Fault // none when Kind is empty
	// Unprotected makes its lock nodes plain ephemeral sequential ones, no
	// GUID in their names: a create whose reply was lost is made again
	// (ZOOKEEPER-1262). Workers are protected unless it is set.
	Unprotected bool
}

// Lesson is one ZooKeeper lesson: workers running the lock recipe on one
// lock against a live server, and the verdicts the run must end with. The
// margins are wide (a 2 s freeze against a 500 ms session, which the
// server expires within a tick or two of its end), so the verdicts do not
// depend on the machine's load; the milliseconds do.
type Lesson struct {
	ID      string
	Title   fact.Text
	Story   fact.Text
	Session time.Duration // the sessions' timeout (the server allows 2 to 20 ticks)
	Expect  []string
	Workers []Worker
	// Horizon, if set, ends the run there (else at the package's
	// Horizon): the log and the verdicts are the state at that moment,
	// for a lesson whose workers wait for ever.
	Horizon time.Duration
	// ServerPause, if set, stops the server (SIGSTOP of the JVM this
	// program started) for that long once every worker's node is in the
	// lock's queue, then resumes it (SIGCONT). Only a server started here
	// can be stopped: such a lesson refuses an external one
	// (ErrCannotPause).
	ServerPause time.Duration
}

// PauseTally is how the race on a server's resume went in the runs
// measured of zookeeper-server-pause's shape on 2026-11-29, load average
// 11–24: 10 of TestAServerPauseExpiresEveryoneOrNoOne (8 expired, 2
// lived on) and 26 of the lesson in scripts/zookeeper-series.sh (24
// expired, 1 lived on, 1 split: the holder's session expired, the
// waiter's lived on). Every session expired at once in Expired runs,
// every session lived on in Outlived, the race split in Split, of Runs.
var PauseTally = struct{ Expired, Outlived, Split, Runs int }{Expired: 32, Outlived: 3, Split: 1, Runs: 36}

// Expected is the verdicts lesson l's run must end with, given its log.
// For a lesson that stops the server, they depend on the branch the run
// took (its pause-outcome line): when the race split and the holder's
// session expired while the waiter's lived on, the waiter's watch fires
// and it takes the lock while the holder still believes it holds it:
// mutual-exclusion (its fenced write after the waiter's is refused, so
// no stale write). Every other branch ends as l.Expect says.
func (l *Lesson) Expected(evs []sim.Event) []string {
	for i := range evs {
		e := &evs[i]
		if e.Kind == sim.KindSay && e.Name == SayPauseOutcome && e.Fact != nil && e.Fact.Key == fact.PauseSplit &&
			len(l.Workers) > 0 && e.Fact.Holder == l.Workers[0].Name {
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

// Lessons are the ZooKeeper lessons, in the order they teach.
var Lessons = []Lesson{
	{
		ID:    "zookeeper-two-workers",
		Title: fact.Text{En: "ZooKeeper's lock: two workers take turns", Zh: "ZooKeeper 的锁：两个 worker 轮流持锁"},
		Story: fact.Text{
			En: "A and B each take ZooKeeper's lock three times: each creates an ephemeral sequential node under job/, the lowest holds, the next watches only the node just below its own. Each writes the account with its fencing token, its node's creation zxid. They never overlap, and each token is above the last.",
			Zh: "A 和 B 各自三次拿 ZooKeeper 的锁：每次在 job/ 下创建一个临时顺序节点，序号最小的持有锁，下一个只监视排在它前面的那个节点。每次都带着 fencing 令牌（自己节点的创建 zxid）写账户。它们从不重叠，每个令牌都比上一个大。",
		},
		Session: 2 * time.Second,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Rounds: 3, Work: 100 * time.Millisecond, Write: Fenced},
			{Name: "B", Rounds: 3, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:    "zookeeper-frozen-holder",
		Title: fact.Text{En: "ZooKeeper's lock: a holder frozen past its session gives two holders", Zh: "ZooKeeper 的锁：冻结超过会话的持有者，出现两个持有者"},
		Story: fact.Text{
			En: "A holds ZooKeeper's lock and freezes for 2s inside (a GC pause: its program and its connection stop, its pings with them). The server expires A's 500ms session by its own clock and deletes A's ephemeral node; B, watching that node, takes the lock and writes the account while A is still inside. The recipe tells A nothing: only when it thaws does its client hear that its session expired. A writes with a plain setData, and ZooKeeper takes it; A's unlock then fails: node does not exist (CURATOR-206, CURATOR-604).",
			Zh: "A 持有 ZooKeeper 的锁，在临界区内冻结 2 秒（GC 停顿：程序和连接一起停下，心跳也停了）。服务器按自己的时钟让 A 的 500 毫秒会话过期，删除 A 的临时节点；监视着这个节点的 B 拿到锁，在 A 仍在临界区内时写了账户。这个锁的实现什么也不告诉 A：直到解冻，它的客户端才得知会话已过期。A 用普通的 setData 写入，ZooKeeper 照单全收；随后 A 的解锁失败：节点不存在（CURATOR-206、CURATOR-604）。",
		},
		Session: 500 * time.Millisecond,
		Expect:  []string{sim.VerdictMutualExclusion, sim.VerdictStaleWrite},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Plain, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: 2 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Plain},
		},
	},
	{
		ID:    "zookeeper-czxid-fencing",
		Title: fact.Text{En: "ZooKeeper's lock: the czxid token refuses the stale holder", Zh: "ZooKeeper 的锁：czxid 令牌拒绝过期的持有者"},
		Story: fact.Text{
			En: "A's Lock() returns with its token, its node's creation zxid, and A freezes for 2s before it writes. Its 500ms session expires, its node goes, B takes the lock and writes the account with its own token, a later zxid. A thaws still believing it holds the lock and writes with its token: the account has taken a higher one, and A's write is refused (Kleppmann: ZooKeeper's zxid as the fencing token).",
			Zh: "A 的 Lock() 返回，带着令牌（它的节点的创建 zxid），随后 A 在写入前冻结了 2 秒。它的 500 毫秒会话过期，节点被删，B 拿到锁，带着自己的令牌（更晚的 zxid）写了账户。A 解冻后仍以为自己持有锁，带着它的令牌写入：账户已经接受过更大的令牌，A 的写入被拒绝（Kleppmann：用 ZooKeeper 的 zxid 作 fencing 令牌）。",
		},
		Session: 500 * time.Millisecond,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Fenced, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkAcquired, For: 2 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:    "zookeeper-no-herd",
		Title: fact.Text{En: "ZooKeeper's lock: four workers, no herd", Zh: "ZooKeeper 的锁：四个 worker，没有羊群效应"},
		Story: fact.Text{
			En: "A holds ZooKeeper's lock; B, C and D ask one after another and queue up behind it, each with its own ephemeral sequential node. Each sets one watch, on the node just below its own: B on A's, C on B's, D on C's. When A lets go only B's watch fires and only B wakes; C and D sleep on. Each release wakes exactly one waiter, the next in line: no herd of clients rushing to read the lock's children at every release.",
			Zh: "A 持有 ZooKeeper 的锁；B、C、D 依次来要锁，各自创建临时顺序节点，排在它后面。每个人只设一个监视，监视排在自己前面的那个节点：B 监视 A 的，C 监视 B 的，D 监视 C 的。A 释放时只有 B 的监视触发，只有 B 被唤醒；C 和 D 继续睡。每次释放恰好唤醒一个等待者，即下一个：没有一群客户端在每次释放时蜂拥去读锁的子节点（羊群效应）。",
		},
		Session: 2 * time.Second,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 300 * time.Millisecond, Write: Fenced},
			{Name: "B", Start: 60 * time.Millisecond, Work: 200 * time.Millisecond, Write: Fenced},
			{Name: "C", Start: 120 * time.Millisecond, Work: 200 * time.Millisecond, Write: Fenced},
			{Name: "D", Start: 180 * time.Millisecond, Work: 200 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:    "zookeeper-lost-create",
		Title: fact.Text{En: "ZooKeeper's lock: a lost create reply leaves an orphan node that blocks everyone", Zh: "ZooKeeper 的锁：丢失的 create 回复留下一个挡住所有人的孤儿节点"},
		Story: fact.Text{
			En: "A asks for the lock with plain ephemeral sequential nodes (no GUID in their names). Its create runs on the server and makes job/lock-0000000000, but the reply is lost with A's connection. A's client reconnects within its 2s session, and A, not knowing its create ran, tries again: job/lock-0000000001. The first node is an orphan of a live session, below A's own: A waits behind itself, and B waits behind A. Nobody will ever delete the orphan while A's client lives and pings; only the end of A's session (its process exits, or closes its client) frees the lock (ZOOKEEPER-1262). The run stops after 4s.",
			Zh: "A 用普通的临时顺序节点（名字里没有 GUID）来要锁。它的 create 在服务器上执行了，创建了 job/lock-0000000000，但回复随 A 的连接一起丢了。A 的客户端在 2 秒会话内重连，A 不知道那次 create 已经执行，于是再试一次：job/lock-0000000001。第一个节点成了一个活着的会话的孤儿节点，排在 A 自己的节点前面：A 在等它自己，B 在等 A。只要 A 的客户端活着、还在发心跳，就没有人会删掉这个孤儿节点；只有 A 的会话结束（进程退出或关闭客户端）才能释放这把锁（ZOOKEEPER-1262）。运行在 4 秒后停止。",
		},
		Session: 2 * time.Second,
		Horizon: 4 * time.Second,
		Expect:  []string{sim.VerdictDeadlock},
		Workers: []Worker{
			{Name: "A", Unprotected: true, Work: 100 * time.Millisecond, Write: Fenced, Fault: Fault{Kind: sim.FaultDropReply, At: AsItAsks}},
			{Name: "B", Unprotected: true, Start: 2 * time.Second, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:    "zookeeper-lost-create-protected",
		Title: fact.Text{En: "ZooKeeper's lock: a protected node survives a lost create reply", Zh: "ZooKeeper 的锁：受保护的节点挺过丢失的 create 回复"},
		Story: fact.Text{
			En: "The same lost reply, with protected nodes (Curator's protected mode): A's node name carries a GUID, kept across retries. Its create runs on the server and the reply is lost with A's connection; A's client reconnects within its session, and before creating again A looks for a node with its GUID. It finds the one it made, holds the lock with that one node, writes and lets go; B, behind it, takes the lock next.",
			Zh: "同样丢失一次回复，但用受保护的节点（Curator 的 protected 模式）：A 的节点名里带着一个 GUID，重试时保持不变。它的 create 在服务器上执行了，回复随 A 的连接丢了；A 的客户端在会话内重连，A 在再次创建之前先找名字带着自己 GUID 的节点。它找到了自己创建的那个，用这一个节点持有锁，写入后释放；排在后面的 B 接着拿到锁。",
		},
		Session: 2 * time.Second,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Fenced, Fault: Fault{Kind: sim.FaultDropReply, At: AsItAsks}},
			{Name: "B", Start: 500 * time.Millisecond, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:    "zookeeper-server-pause",
		Title: fact.Text{En: "ZooKeeper's lock: a server pause expires everyone, or no one", Zh: "ZooKeeper 的锁：服务器停顿，要么所有人过期，要么没有人过期"},
		Story: fact.Text{
			En: "A holds ZooKeeper's lock and works inside; B waits on A's node. Then the server itself stops for 1s (SIGSTOP of the JVM Lockstep started: a long GC pause or a frozen VM), twice the clients' 500ms sessions. The clients are healthy and keep pinging; the kernel queues their pings. On the resume (SIGCONT) two of the server's threads race: its session tracker, whose clock ran on through the stop, finds every deadline passed and expires every session at once, the healthy holder's with the waiter's (A's node goes, B's Lock fails, and A, told nothing by the recipe, believes it holds until its client reconnects); or the queued pings reach it first and every session lives on. Which way it goes is not ZooKeeper's rule but a race: the run says which branch it took. In either the lock is not handed on to B while A holds, and A writes with its czxid, after no later token: safe. Rarely the race splits: A's session expires and B's lives on, B's watch fires and B takes the lock while A still believes it holds it: mutual-exclusion (A's write after B's is refused by its token).",
			Zh: "A 持有 ZooKeeper 的锁，在临界区内工作；B 在 A 的节点上等待。随后服务器本身停住 1 秒（向 Lockstep 启动的 JVM 发 SIGSTOP：一次很长的 GC 停顿，或虚拟机被冻结），是客户端 500 毫秒会话的两倍。客户端都健康，一直在发心跳；内核把它们的心跳排在队里。恢复（SIGCONT）时，服务器的两个线程赛跑：它的会话跟踪器的时钟在停住期间照常走，发现所有期限都已过去，一下子让所有会话过期，健康的持有者和等待者一起（A 的节点没了，B 的 Lock 失败，而这个锁的实现什么也不告诉 A，它在客户端重连之前一直以为自己持有锁）；或者排队的心跳先到，所有会话都活下来。走哪一条不是 ZooKeeper 的规则，而是一场竞争：这次运行会说出它走了哪一条。两条路上锁都没有在 A 持有时交给 B，A 带着它的 czxid 写入，此前没有发出更新的令牌：安全。偶尔这场竞争会分开：A 的会话过期而 B 的活下来，B 的监视触发，B 在 A 仍以为自己持有锁时拿到锁：互斥被打破（A 在 B 之后的写入被令牌拒绝）。",
		},
		Session:     500 * time.Millisecond,
		ServerPause: time.Second,
		Expect:      []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 2500 * time.Millisecond, Write: Fenced},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Fenced},
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
