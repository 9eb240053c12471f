// Package livecard computes the report card's live rows: etcd's
// concurrency.Mutex and ZooKeeper's lock recipe, on their real servers in
// real time. The engine does not control those servers' clocks, so a cell
// cannot be searched: it is a sample, its column's fault at one fixed
// placement run Runs times, with the tally of how the runs ended
// (report.Broke, report.Unbroken). A fault a service cannot take is n/a,
// with why.
package livecard

import (
	"time"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// Row is one live row of the card: a lock on one service, writing the
// resource one way, and its cells by column id.
type Row struct {
	Algorithm string
	Variant   string // the write its runs make
	Title     string
	// Storage: judged at its storage, as the card judges a lock with
	// fencing tokens: two clients inside at once is what the checked
	// write guards against, so only a violation beyond it counts.
	Storage bool
	Needs   []sim.Text
	Advice  sim.Text
	Cells   map[string]Cell
	service string // "etcd" or "zookeeper"
}

// Cell is one cell's runs: a lesson with the column's fault at one fixed
// placement (Etcd or ZooKeeper), in words (Placement), and the class its
// runs were argued to end in before they ran (Argued: report.Broke or
// report.Unbroken); or not applicable (NA), with why.
type Cell struct {
	Etcd      *etcd.Lesson
	ZooKeeper *zookeeper.Lesson
	Placement sim.Text
	Argued    string
	NA        *sim.Text
}

// Rows are the live rows, in the card's order.
var Rows = []Row{etcdRow(etcd.Plain), etcdRow(etcd.Guarded), zkRow(zookeeper.Plain), zkRow(zookeeper.Fenced)}

// The sizes of the live rows' faults: wider than the card's 2× lease, for
// real time on a loaded machine (a lease is ended by a 500 ms loop on
// etcd's server, a session within a tick or two on ZooKeeper's).
const (
	etcdLease  = 1                      // seconds: etcd's lease unit
	etcdFreeze = 3 * time.Second        // a pause or a cut of the holder, 3× its lease
	zkSession  = 500 * time.Millisecond // ZooKeeper's session timeout (5 ticks)
	zkFreeze   = 2 * time.Second        // a pause or a cut of the holder, 4× its session
	work       = 100 * time.Millisecond // inside the critical section
	bStarts    = 200 * time.Millisecond // B starts after A, so that A holds first
)

// The columns neither service can take, and why.
var (
	clockNA = map[string]*sim.Text{
		"etcd": {En: "etcd's server ends a lease by its own monotonic clock (Go's time.Now carries one): a jump of the wall clock moves no lease; the engine cannot move that clock",
			Zh: "etcd 服务器按自己的单调时钟结束租约（Go 的 time.Now 带单调读数）：墙上时钟的跳变不会移动任何租约；引擎也移动不了这个时钟"},
		"zookeeper": {En: "ZooKeeper's server times sessions by its own monotonic clock (System.nanoTime): a jump of the wall clock expires no session; the engine cannot move that clock",
			Zh: "ZooKeeper 服务器按自己的单调时钟（System.nanoTime）计算会话：墙上时钟的跳变不会让任何会话过期；引擎也移动不了这个时钟"},
	}
	restartNA = map[string]*sim.Text{
		"etcd": {En: "etcd writes every change, the lock's key and its lease among them, to its write-ahead log before it answers: a restarted member comes back with them, never empty, so this fault cannot happen to it",
			Zh: "etcd 在回复之前把每一次修改（包括锁的键和它的租约）写进预写日志：重启的成员带着它们回来，绝不会是空的，所以这种故障不会发生在它身上"},
		"zookeeper": {En: "ZooKeeper logs every change, the lock's nodes and sessions among them, to its transaction log before it answers: a restarted server comes back with them, never empty, so this fault cannot happen to it",
			Zh: "ZooKeeper 在回复之前把每一次修改（包括锁的节点和会话）写进事务日志：重启的服务器带着它们回来，绝不会是空的，所以这种故障不会发生在它身上"},
	}
	failoverNA = map[string]*sim.Text{
		"etcd": {En: "one etcd member here, no replica to promote; with more, Raft answers a write only once a majority has it, so a new leader never lacks an acknowledged lock key",
			Zh: "这里只有一个 etcd 成员，没有可以提升的副本；成员更多时，Raft 要等多数成员都有了才回复写入，所以新的 leader 不会缺少已确认的锁键"},
		"zookeeper": {En: "one ZooKeeper server here, no replica to promote; with an ensemble, Zab answers a write only once a quorum has it, so a new leader never lacks an acknowledged lock node",
			Zh: "这里只有一台 ZooKeeper 服务器，没有可以提升的副本；集群中，Zab 要等法定多数都有了才回复写入，所以新的 leader 不会缺少已确认的锁节点"},
	}
)

// notApplicable fills a row's cells of the columns its service cannot take.
func notApplicable(service string, cells map[string]Cell) map[string]Cell {
	cells["clock-jump"] = Cell{NA: clockNA[service]}
	cells["restart"] = Cell{NA: restartNA[service]}
	cells["failover"] = Cell{NA: failoverNA[service]}
	return cells
}

// Columns are the card's column ids; every live row has a cell for each.
func Columns() []string { return report.ColumnIDs() }
