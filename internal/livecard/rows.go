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
	"github.com/lockstep/lockstep/internal/fact"
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
		"etcd":      textOf(fact.Say("livecard.na.clock-etcd")),
		"zookeeper": textOf(fact.Say("livecard.na.clock-zookeeper")),
	}
	restartNA = map[string]*sim.Text{
		"etcd":      textOf(fact.Say("livecard.na.restart-etcd")),
		"zookeeper": textOf(fact.Say("livecard.na.restart-zookeeper")),
	}
	failoverNA = map[string]*sim.Text{
		"etcd":      textOf(fact.Say("livecard.na.failover-etcd")),
		"zookeeper": textOf(fact.Say("livecard.na.failover-zookeeper")),
	}
)

// textOf is t's address, for a cell's NA.
func textOf(t sim.Text) *sim.Text { return &t }

// notApplicable fills a row's cells of the columns its service cannot take.
func notApplicable(service string, cells map[string]Cell) map[string]Cell {
	cells["clock-jump"] = Cell{NA: clockNA[service]}
	cells["restart"] = Cell{NA: restartNA[service]}
	cells["failover"] = Cell{NA: failoverNA[service]}
	return cells
}

// Columns are the card's column ids; every live row has a cell for each.
func Columns() []string { return report.ColumnIDs() }
