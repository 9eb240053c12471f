package report

import (
	"strconv"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// The lease every lock of the card is given (its ttl parameter, when it
// has one), and the sizes of the faults measured against it.
const (
	Lease   = time.Second            // ttl of every lock that takes one
	Retry   = 100 * time.Millisecond // retry of every lock that takes one
	Work    = 500 * time.Millisecond // time inside the critical section
	Horizon = 5 * time.Second        // virtual time of every schedule
	Lag     = 200 * time.Millisecond // the replica's lag in the failover column
	Timeout = 100 * time.Millisecond // how long a client waits for a reply
	Down    = 400 * time.Millisecond // the longest a node stays down before it restarts empty
)

// A Column is one fault people fear, with the small template that puts
// it in a scenario: the fault budget the search spends, and where it may
// place it.
type Column struct {
	ID    string   `json:"id"`
	Title sim.Text `json:"title"` // the column's heading
	What  sim.Text `json:"what"`  // what the fault is, in a sentence, with its bound
	// Budget is what the search may spend (nil: no fault, only the order
	// of the clients' moves).
	Budget []scenario.Budget `json:"-"`
	// Marks, when not empty, are the only places a client fault lands
	// (explore.Options.Marks), with the lock's own flaw points
	// (lock.Info.FlawAfter): "inside the critical section" is enter.
	Marks []string `json:"-"`
	// Exact: a sized fault takes its max only (else its quarters).
	Exact bool `json:"-"`
	// Replica puts an asynchronous replica beside the lock's one master
	// (the failover column).
	Replica bool `json:"-"`
	// Node tells that the fault hits a Redis node or a client's link to
	// one: it does not apply to a lock that keeps nothing on a node.
	Node bool `json:"-"`
	// Network tells that the fault hits what a lock sends over the
	// network: it does not apply to a lock that sends nothing.
	Network bool `json:"-"`
}

// Columns are the card's columns, in order.
var Columns = []Column{
	{
		ID:    "contention",
		Title: sim.Text{En: "contention alone", Zh: "仅有竞争"},
		What: sim.Text{En: "two clients start together; every order of their moves, no fault",
			Zh: "两个客户端同时开始；它们移动的每一种先后顺序，没有故障"},
	},
	{
		ID:      "lost-reply",
		Title:   sim.Text{En: "a lost reply", Zh: "丢失一个回复"},
		What:    sim.Text{En: "one reply to a client is lost on the way back, after any step", Zh: "任意一步之后，发给某个客户端的一个回复在返回途中丢失"},
		Budget:  []scenario.Budget{{Do: string(sim.FaultDropReply), Count: 1}},
		Network: true,
	},
	pauseColumn(Lease),
	{
		ID:    "crash",
		Title: sim.Text{En: "a crash while holding", Zh: "持锁时崩溃"},
		What: sim.Text{En: "a client dies for good once it holds the lock (as it acquires or enters), or at its lock's known flaw point (right after its SETNX, before the EXPIRE; after the GET of its release; after a Redlock vote)",
			Zh: "客户端拿到锁之后（加锁成功或进入临界区时），或在它的锁已知的缺陷点（SETNX 刚执行完、EXPIRE 之前；释放时的 GET 之后；Redlock 的一票之后）永久崩溃"},
		Budget: []scenario.Budget{{Do: string(sim.FaultCrash), Count: 1}},
		Marks:  []string{sim.MarkAcquired, sim.MarkEnter},
	},
	clockJumpColumn(Lease),
	{
		ID:     "restart",
		Title:  sim.Text{En: "a restart without persistence", Zh: "无持久化重启"},
		What:   sim.Text{En: "one Redis node goes down and comes back empty 100ms to 400ms later, after any step", Zh: "任意一步之后，一个 Redis 节点宕机，100 到 400 毫秒后不带数据重启"},
		Budget: []scenario.Budget{{Do: string(sim.FaultNodeCrash), Count: 1, Max: scenario.Duration(Down)}},
		Node:   true,
	},
	{
		ID:      "failover",
		Title:   sim.Text{En: "failover before replication", Zh: "复制前主从切换"},
		What:    sim.Text{En: "the master has a replica 200ms behind it; the replica is promoted after any step", Zh: "主节点有一个落后 200 毫秒的副本；任意一步之后副本被提升为主节点"},
		Budget:  []scenario.Budget{{Do: string(sim.FaultFailover), Count: 1}},
		Replica: true,
		Node:    true,
	},
	{
		ID:      "partition",
		Title:   sim.Text{En: "a partition", Zh: "网络分区"},
		What:    sim.Text{En: "one client's link to one node is cut for good, after any step", Zh: "任意一步之后，一个客户端到一个节点的链路永久断开"},
		Budget:  []scenario.Budget{{Do: string(sim.FaultPartition), Count: 1}},
		Node:    true,
		Network: true,
	},
}

// pauseColumn is the column of a pause of 2× lease as a client enters,
// or at its lock's known flaw point.
func pauseColumn(lease time.Duration) Column {
	return Column{
		ID:    "pause",
		Title: sim.Text{En: "a pause longer than the lease", Zh: "停顿超过租约"},
		What: sim.Text{En: "a client stops the world for 2× the lease (" + scenario.FormatDuration(2*lease) + ") as it enters its critical section, or at its lock's known flaw point (right after the GET its release trusts, a Redlock vote)",
			Zh: "客户端刚进入临界区时，或在它的锁已知的缺陷点（释放所依据的 GET 刚执行完、Redlock 的一票刚投下），整个进程停顿租约的 2 倍（" + zhDuration(2*lease) + "）"},
		Budget: []scenario.Budget{{Do: string(sim.FaultPause), Count: 1, Max: scenario.Duration(2 * lease)}},
		Marks:  []string{sim.MarkEnter},
		Exact:  true,
	}
}

// clockJumpColumn is the column of a node's clock jumping 2× lease.
func clockJumpColumn(lease time.Duration) Column {
	return Column{
		ID:    "clock-jump",
		Title: sim.Text{En: "a clock jump on a node", Zh: "节点时钟跳变"},
		What: sim.Text{En: "one Redis node's clock jumps 2× the lease (" + scenario.FormatDuration(2*lease) + ") forward, after any step",
			Zh: "任意一步之后，一个 Redis 节点的时钟向前跳租约的 2 倍（" + zhDuration(2*lease) + "）"},
		Budget: []scenario.Budget{{Do: string(sim.FaultClockJump), Count: 1, Max: scenario.Duration(2 * lease)}},
		Node:   true,
		Exact:  true,
	}
}

// pauseReleaseColumn, a column of the card for a user's setup, is a
// pause of up to the lease after the work, as the client leaves its
// critical section and before its release: the stall that shows whose
// lock a release deletes. Its sizes are the quarters of the lease, not
// twice it: the release harms the next holder only if it comes while
// that holder still holds, which a pause longer than the lease plus the
// next holder's work misses.
func pauseReleaseColumn(lease time.Duration) Column {
	return Column{
		ID:    "pause-release",
		Title: sim.Text{En: "a pause before the release", Zh: "释放前停顿"},
		What: sim.Text{En: "a client stops the world for a quarter, a half, three quarters or all of the lease (" + scenario.FormatDuration(lease) + ") after its work, as it leaves its critical section and before it releases",
			Zh: "客户端干完活、离开临界区、尚未释放时，整个进程停顿租约（" + zhDuration(lease) + "）的四分之一、一半、四分之三或全部"},
		Budget: []scenario.Budget{{Do: string(sim.FaultPause), Count: 1, Max: scenario.Duration(lease)}},
		Marks:  []string{sim.MarkLeave},
	}
}

// SetupColumns are the columns of the card for a user's setup whose lock
// takes a lease of lease: the card's columns with their faults sized to
// that lease, and a pause before the release after the pause as a client
// enters.
func SetupColumns(lease time.Duration) []Column {
	var out []Column
	for _, c := range Columns {
		switch c.ID {
		case pauseColumn(lease).ID:
			out = append(out, pauseColumn(lease), pauseReleaseColumn(lease))
		case clockJumpColumn(lease).ID:
			out = append(out, clockJumpColumn(lease))
		case Columns[0].ID: // contention alone
			c.What = sim.Text{En: "your clients as they start; every order of their moves, no fault",
				Zh: "你的客户端按各自的时间开始；它们移动的每一种先后顺序，没有故障"}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// zhDuration writes a duration for a Chinese sentence: whole seconds as
// "2 秒", else as a scenario file writes it.
func zhDuration(d time.Duration) string {
	if d > 0 && d%time.Second == 0 {
		return strconv.Itoa(int(d/time.Second)) + " 秒"
	}
	return scenario.FormatDuration(d)
}

// ColumnByID finds a column.
func ColumnByID(id string) (*Column, bool) {
	for i := range Columns {
		if Columns[i].ID == id {
			return &Columns[i], true
		}
	}
	return nil, false
}

// ColumnIDs lists the columns' ids in order.
func ColumnIDs() []string {
	out := make([]string, len(Columns))
	for i, c := range Columns {
		out[i] = c.ID
	}
	return out
}
