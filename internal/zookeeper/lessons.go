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
		ID:      "zookeeper-two-workers",
		Title:   fact.Say("zookeeper.two-workers-title"),
		Story:   fact.Say("zookeeper.two-workers-story"),
		Session: 2 * time.Second,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Rounds: 3, Work: 100 * time.Millisecond, Write: Fenced},
			{Name: "B", Rounds: 3, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:      "zookeeper-frozen-holder",
		Title:   fact.Say("zookeeper.frozen-holder-title"),
		Story:   fact.Say("zookeeper.frozen-holder-story"),
		Session: 500 * time.Millisecond,
		Expect:  []string{sim.VerdictMutualExclusion, sim.VerdictStaleWrite},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Plain, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: 2 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Plain},
		},
	},
	{
		ID:      "zookeeper-czxid-fencing",
		Title:   fact.Say("zookeeper.czxid-fencing-title"),
		Story:   fact.Say("zookeeper.czxid-fencing-story"),
		Session: 500 * time.Millisecond,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Fenced, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkAcquired, For: 2 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:      "zookeeper-no-herd",
		Title:   fact.Say("zookeeper.no-herd-title"),
		Story:   fact.Say("zookeeper.no-herd-story"),
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
		ID:      "zookeeper-lost-create",
		Title:   fact.Say("zookeeper.lost-create-title"),
		Story:   fact.Say("zookeeper.lost-create-story"),
		Session: 2 * time.Second,
		Horizon: 4 * time.Second,
		Expect:  []string{sim.VerdictDeadlock},
		Workers: []Worker{
			{Name: "A", Unprotected: true, Work: 100 * time.Millisecond, Write: Fenced, Fault: Fault{Kind: sim.FaultDropReply, At: AsItAsks}},
			{Name: "B", Unprotected: true, Start: 2 * time.Second, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:      "zookeeper-lost-create-protected",
		Title:   fact.Say("zookeeper.lost-create-protected-title"),
		Story:   fact.Say("zookeeper.lost-create-protected-story"),
		Session: 2 * time.Second,
		Expect:  []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Fenced, Fault: Fault{Kind: sim.FaultDropReply, At: AsItAsks}},
			{Name: "B", Start: 500 * time.Millisecond, Work: 100 * time.Millisecond, Write: Fenced},
		},
	},
	{
		ID:          "zookeeper-server-pause",
		Title:       fact.Say("zookeeper.server-pause-title"),
		Story:       fact.Say("zookeeper.server-pause-story"),
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
