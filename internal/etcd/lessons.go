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
		ID:     "etcd-two-workers",
		Title:  fact.Say("etcd.two-workers-title"),
		Story:  fact.Say("etcd.two-workers-story"),
		Lease:  1,
		Expect: []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Rounds: 3, Work: 100 * time.Millisecond, Write: Guarded},
			{Name: "B", Rounds: 3, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		ID:     "etcd-pause-past-lease",
		Title:  fact.Say("etcd.pause-past-lease-title"),
		Story:  fact.Say("etcd.pause-past-lease-story"),
		Lease:  1,
		Expect: []string{sim.VerdictMutualExclusion},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: 3 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond},
		},
	},
	{
		ID:     "etcd-guarded-write",
		Title:  fact.Say("etcd.guarded-write-title"),
		Story:  fact.Say("etcd.guarded-write-story"),
		Lease:  1,
		Expect: []string{sim.VerdictSafe},
		Workers: []Worker{
			{Name: "A", Work: 100 * time.Millisecond, Write: Guarded, Fault: Fault{Kind: sim.FaultPause, At: sim.MarkAcquired, For: 3 * time.Second}},
			{Name: "B", Start: 200 * time.Millisecond, Work: 100 * time.Millisecond, Write: Guarded},
		},
	},
	{
		ID:     "etcd-plain-put",
		Title:  fact.Say("etcd.plain-put-title"),
		Story:  fact.Say("etcd.plain-put-story"),
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
		ID:     "etcd-waiter-lease-expired",
		Title:  fact.Say("etcd.waiter-lease-expired-title"),
		Story:  fact.Say("etcd.waiter-lease-expired-story"),
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
		ID:          "etcd-server-pause",
		Title:       fact.Say("etcd.server-pause-title"),
		Story:       fact.Say("etcd.server-pause-story"),
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
