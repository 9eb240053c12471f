package report

import (
	"time"

	"github.com/lockstep/lockstep/internal/fact"
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
		Title: fact.Say("report.col.contention.title"),
		What:  fact.Say("report.col.contention.what"),
	},
	{
		ID:      "lost-reply",
		Title:   fact.Say("report.col.lost-reply.title"),
		What:    fact.Say("report.col.lost-reply.what"),
		Budget:  []scenario.Budget{{Do: string(sim.FaultDropReply), Count: 1}},
		Network: true,
	},
	pauseColumn(Lease),
	{
		ID:     "crash",
		Title:  fact.Say("report.col.crash.title"),
		What:   fact.Say("report.col.crash.what"),
		Budget: []scenario.Budget{{Do: string(sim.FaultCrash), Count: 1}},
		Marks:  []string{sim.MarkAcquired, sim.MarkEnter},
	},
	clockJumpColumn(Lease),
	{
		ID:     "restart",
		Title:  fact.Say("report.col.restart.title"),
		What:   fact.Say("report.col.restart.what"),
		Budget: []scenario.Budget{{Do: string(sim.FaultNodeCrash), Count: 1, Max: scenario.Duration(Down)}},
		Node:   true,
	},
	{
		ID:      "failover",
		Title:   fact.Say("report.col.failover.title"),
		What:    fact.Say("report.col.failover.what"),
		Budget:  []scenario.Budget{{Do: string(sim.FaultFailover), Count: 1}},
		Replica: true,
		Node:    true,
	},
	{
		ID:      "partition",
		Title:   fact.Say("report.col.partition.title"),
		What:    fact.Say("report.col.partition.what"),
		Budget:  []scenario.Budget{{Do: string(sim.FaultPartition), Count: 1}},
		Node:    true,
		Network: true,
	},
}

// pauseColumn is the column of a pause of 2× lease as a client enters,
// or at its lock's known flaw point.
func pauseColumn(lease time.Duration) Column {
	return Column{
		ID:     "pause",
		Title:  fact.Say("report.col.pause.title"),
		What:   fact.Say("report.col.pause.what", duration(2*lease)),
		Budget: []scenario.Budget{{Do: string(sim.FaultPause), Count: 1, Max: scenario.Duration(2 * lease)}},
		Marks:  []string{sim.MarkEnter},
		Exact:  true,
	}
}

// clockJumpColumn is the column of a node's clock jumping 2× lease.
func clockJumpColumn(lease time.Duration) Column {
	return Column{
		ID:     "clock-jump",
		Title:  fact.Say("report.col.clock-jump.title"),
		What:   fact.Say("report.col.clock-jump.what", duration(2*lease)),
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
		ID:     "pause-release",
		Title:  fact.Say("report.col.pause-release.title"),
		What:   fact.Say("report.col.pause-release.what", duration(lease)),
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
			c.What = fact.Say("report.col.setup-contention.what")
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// duration writes a duration for a sentence: as a scenario file writes
// it, and in Chinese whole seconds in words.
func duration(d time.Duration) sim.Text {
	t := sim.Text{En: scenario.FormatDuration(d), Zh: scenario.FormatDuration(d)}
	if d > 0 && d%time.Second == 0 {
		t.Zh = fact.Say("report.whole-seconds", int(d/time.Second)).Zh
	}
	return t
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
