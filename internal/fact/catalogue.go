package fact

import (
	"strconv"
	"strings"
	"time"
)

// Key names a fact's sentence in the catalogue.
type Key string

// The catalogue's keys, grouped by who states them. Each names the fields
// its sentence reads.
const (
	// The network and the nodes (the engine).
	RequestLost   Key = "request-lost"   // Node: a request that never reached Node
	Down          Key = "down"           // Node: a request refused, a node that went down
	ReplyLost     Key = "reply-lost"     // Client: a reply that never reached Client
	NewConnection Key = "new-connection" // Cmds: the setup a new connection sent first
	TTLRanOut     Key = "ttl-ran-out"    // Holder (or none); Node, Have, Want: a vote, the holder still holding a quorum elsewhere
	CleanupRows   Key = "cleanup-rows"   // For, Cutoff, Rows: the rows a cleanup job deleted
	Cleanup       Key = "cleanup"        // What, Holders: a cleanup job deleted What
	CleanupFailed Key = "cleanup-failed" // Reason
	WaitBlocks    Key = "wait-blocks"    // Replica, Have of Want: a WAIT that blocks
	WaitTimedOut  Key = "wait-timed-out" // Replica, Have of Want, Engine
	WaitApplied   Key = "wait-applied"   // Replica, Engine: the replica has every write
	WaitDied      Key = "wait-died"      // Node: the master died under a blocked WAIT
	ReplicaOf     Key = "replica-of"     // Node (the master), For (lag), Real, Replica: a replication link made
	Shipped       Key = "shipped"        // Cmds, Node (the master), Write, Ago, Real: writes a replica applies
	ShipLost      Key = "ship-lost"      // Replica, What: writes that reached a replica that is down
	ShipFailed    Key = "ship-failed"    // Reason, What
	NotApplied    Key = "not-applied"    // Reason, What (or none): a fault or a shipment that changed nothing
	ServerLost    Key = "server-lost"    // Reason: a real server stopped answering, and the run ends

	// The engine's errors, as a client's program meets them.
	Refused  Key = "refused"   // Node: connection refused (Node is down)
	TimedOut Key = "timed-out" // Node: i/o timeout (no reply from Node)
	// DeadlinePassed: a command timed out at its caller's context deadline
	// (a library's per-call timeout, on the virtual clock).
	DeadlinePassed Key = "deadline-passed"
	Panic          Key = "panic"  // Text: a client's program panicked
	Failed         Key = "failed" // Text, Reason (or none): an error no other key states

	// Faults (the engine).
	Crashed         Key = "crashed"           // Client, For (restart delay, or 0)
	StartsAgain     Key = "starts-again"      // Client, Incarnation
	Paused          Key = "paused"            // Client, For
	RunsAgain       Key = "runs-again"        // Client
	NextRequestLost Key = "next-request-lost" // Client
	NextReplyLost   Key = "next-reply-lost"   // Client
	CutOff          Key = "cut-off"           // Node, Client (or none: every client)
	Reachable       Key = "reachable"         // Node
	BackWithData    Key = "back-with-data"    // Node
	BackEmpty       Key = "back-empty"        // Node
	ClockJumps      Key = "clock-jumps"       // Node, By
	ClockAhead      Key = "clock-ahead"       // Client, By
	FailedOver      Key = "failed-over"       // Node (the master), Replica, Cmds (writes lost), Real

	// Why the engine refuses a fault (an error: BadFault, its Reason one
	// of these), or does not know a name.
	BadFault        Key = "bad-fault"         // Reason
	UnknownKind     Key = "unknown-kind"      // Item: the kind
	AlreadyCrashed  Key = "already-crashed"   // Client
	HasCrashed      Key = "has-crashed"       // Client
	AlreadyPaused   Key = "already-paused"    // Client, Until, For: a pause that would end before the current one
	IsRunning       Key = "is-running"        // Client
	RestartsItself  Key = "restarts-itself"   // Client
	NeedsAmount     Key = "needs-amount"      // Item (the kind), Value (the field: for, by), Text (the hint)
	AlreadyDown     Key = "already-down"      // Node
	NotDown         Key = "not-down"          // Node
	ClockCannotJump Key = "clock-cannot-jump" // Node, Reason
	NoReplica       Key = "no-replica"        // Node
	ReplicaDown     Key = "replica-down"      // Node, Replica
	NodeFailed      Key = "node-failed"       // Node, Reason
	UnknownClient   Key = "unknown-client"    // Client
	UnknownNode     Key = "unknown-node"      // Node
	ClockNotSet     Key = "clock-not-set"     // Reason: a node's clock offset a real server cannot take

	// The services.
	PlainStorage    Key = "plain-storage"     // a storage that takes every write
	FirstToken      Key = "first-token"       // Token: the first token the storage sees
	TokenAccepted   Key = "token-accepted"    // Token, Highest
	RejectedNoToken Key = "rejected-no-token" // Highest
	RejectedOlder   Key = "rejected-older"    // Token, Highest
	DuplicateRow    Key = "duplicate-row"     // the lock row exists already

	// The lessons' clients.
	HoldOf           Key = "hold-of"          // Hold, Depth
	HoldGivenBack    Key = "hold-given-back"  // Hold, Depth
	AsksAgain        Key = "asks-again"       // Hold, Depth: a re-entry
	NotInTime        Key = "not-in-time"      // could not acquire the lock in time; Text: what a library said (rows 18-19)
	CouldNotLock     Key = "could-not-lock"   // Item
	Kept             Key = "kept"             // the request ends holding the lock
	NoLongerOurs     Key = "no-longer-ours"   // a release that found the lock another's; Text: what a library said
	Stock            Key = "stock"            // From, To
	StockRead        Key = "stock-read"       // From: the stock a task read, not yet written back
	NoStock          Key = "no-stock"         // the stock is 0
	Dispatch         Key = "dispatch"         // Request, Thread
	NothingListed    Key = "nothing-listed"   // the market is empty
	ItemNamed        Key = "item"             // Item
	AlreadySold      Key = "already-sold"     // Item
	StorageRefused   Key = "storage-refused"  // Token
	StorageAccepted  Key = "storage-accepted" // Token, or 0: a write without one
	LocalMutex       Key = "local-mutex"      // the process's local mutex
	LocalMutexHeldBy Key = "local-mutex-held" // Holder (a thread)

	// The lock algorithms (their observer's marks).
	Replicated    Key = "replicated"     // Have of Want replicas
	NotReplicated Key = "not-replicated" // Have of Want replicas; or Reason: WAIT failed
	Repair        Key = "repair"         // a lock found without a TTL gets one
	NoWatchdog    Key = "no-watchdog"    // the process cannot start threads
	RenewLost     Key = "renew-lost"     // the watchdog found the lock another's
	Renewed       Key = "renewed"        // For: the TTL set again
	RenewedOrphan Key = "renewed-orphan" // For: the TTL set again for a request whose thread died on an error
	Token         Key = "token"          // Token: a lease's fencing token
	ExecFailed    Key = "exec-failed"    // Tries: optimistic transactions that all failed
	ExecRetry     Key = "exec-retry"     // Tries: a watched key changed
	StampPassed   Key = "stamp-passed"   // Value: a lock's timestamp has passed
	Quorum        Key = "quorum"         // Votes: a Redlock vote won
	TooLate       Key = "too-late"       // Votes: a majority with no validity left
	NoQuorum      Key = "no-quorum"      // Votes: no majority

	// The libraries run as they are (rows 18-19); Text is the library's
	// own words, quoted as it wrote them.
	ValidUntil    Key = "valid-until"    // For: redsync's Until(), from now
	Extended      Key = "extended"       // For: redsync's Until() after an Extend, from now
	ExtendFailed  Key = "extend-failed"  // Text (or none): the caller's extend loop stops
	Refreshed     Key = "refreshed"      // For: redislock's Refresh set the TTL again
	RefreshFailed Key = "refresh-failed" // Text: the caller's refresh loop stops

	// A coordination service run in real time (etcd).
	LeaseEnded  Key = "lease-ended"  // Holder (or none), Item: the waiter's key the server deleted with its lease
	SessionDone Key = "session-done" // Client: the client's Session.Done fired: it can learn its lease is gone
	NotOwner    Key = "not-owner"    // Client: a Txn If IsOwner() failed; nothing written
	RealTime    Key = "real-time"    // a run on a live server, in real time

	// ZooKeeper's sessions.
	SessionExpired Key = "session-expired" // Holder (or none), Item: the lock node the server deleted with its session
	SessionLost    Key = "session-lost"    // Client: its client hears its session expired
	Watching       Key = "watching"        // Client, Item: the lock node just below its own, which it watches
	Woken          Key = "woken"           // Client, Item: the watched node went, and its watch fired
	// A server stopped and resumed (SIGSTOP, SIGCONT of ZooKeeper's JVM),
	// and which way the race on its resume went this run, beside the tally
	// measured (Have of Want runs went that way).
	ServerStopped   Key = "server-stopped"    // Node, For
	ServerResumed   Key = "server-resumed"    // Node
	PauseExpiredAll Key = "pause-expired-all" // Have, Want: every session expired on the resume
	PauseOutlived   Key = "pause-outlived"    // Have, Want: every session lived on
	PauseSplit      Key = "pause-split"       // Holder (expired), Client (lived on), Have, Want: one session expired, the other lived on
	// An etcd server process stopped and resumed, and whether the holder's
	// lease ended on the resume this run (Have of Want runs went that way).
	EtcdServerStopped Key = "etcd-server-stopped" // Node, For
	EtcdServerResumed Key = "etcd-server-resumed" // Node
	EtcdPauseDropped  Key = "etcd-pause-dropped"  // Holder, Have, Want: the holder's lease ended after the resume
	EtcdPauseKept     Key = "etcd-pause-kept"     // Holder, Have, Want: the holder's lease lived on
	// An etcd server process killed and started again on its data, and
	// whether the holder's lease lived through it this run.
	EtcdServerCrashed   Key = "etcd-server-crashed"   // Node, For
	EtcdServerRestarted Key = "etcd-server-restarted" // Node
	EtcdRestartKept     Key = "etcd-restart-kept"     // Holder, Have, Want: the holder's lease lived through the restart
	EtcdRestartLost     Key = "etcd-restart-lost"     // Holder, Have, Want: the holder's lease ended after the restart
)

// Keys lists every key of the catalogue.
var Keys = []Key{
	RequestLost, Down, ReplyLost, NewConnection, TTLRanOut, CleanupRows, Cleanup, CleanupFailed,
	WaitBlocks, WaitTimedOut, WaitApplied, WaitDied, ReplicaOf, Shipped, ShipLost, ShipFailed, NotApplied, ServerLost,
	Refused, TimedOut, DeadlinePassed, Panic, Failed,
	Crashed, StartsAgain, Paused, RunsAgain, NextRequestLost, NextReplyLost, CutOff, Reachable,
	BackWithData, BackEmpty, ClockJumps, ClockAhead, FailedOver,
	BadFault, UnknownKind, AlreadyCrashed, HasCrashed, AlreadyPaused, IsRunning, RestartsItself, NeedsAmount, AlreadyDown, NotDown,
	ClockCannotJump, NoReplica, ReplicaDown, NodeFailed, UnknownClient, UnknownNode, ClockNotSet,
	PlainStorage, FirstToken, TokenAccepted, RejectedNoToken, RejectedOlder, DuplicateRow,
	HoldOf, HoldGivenBack, AsksAgain, NotInTime, CouldNotLock, Kept, NoLongerOurs, Stock, StockRead, NoStock,
	Dispatch, NothingListed, ItemNamed, AlreadySold, StorageRefused, StorageAccepted, LocalMutex, LocalMutexHeldBy,
	Replicated, NotReplicated, Repair, NoWatchdog, RenewLost, Renewed, RenewedOrphan, Token, ExecFailed, ExecRetry,
	StampPassed, Quorum, TooLate, NoQuorum,
	ValidUntil, Extended, ExtendFailed, Refreshed, RefreshFailed,
	LeaseEnded, SessionDone, NotOwner, RealTime, SessionExpired, SessionLost, Watching, Woken,
	ServerStopped, ServerResumed, PauseExpiredAll, PauseOutlived, PauseSplit,
	EtcdServerStopped, EtcdServerResumed, EtcdPauseDropped, EtcdPauseKept,
	EtcdServerCrashed, EtcdServerRestarted, EtcdRestartKept, EtcdRestartLost,
}

// Render says the fact in English and Chinese. A key the catalogue does
// not know gives the key itself in both (its tests list every key). A nil
// fact says nothing.
func (f *Fact) Render() Text {
	m := f.marked()
	return Cited(m.En, m.Zh)
}

// marked is the fact's sentence with the events it cites marked (Seq):
// a fact within a fact is rendered so, and only the outer Render takes
// the marks out into its Text's Cites.
func (f *Fact) marked() Text {
	if f == nil {
		return Text{}
	}
	if say, ok := sentences[f.Key]; ok {
		return say(f)
	}
	return Text{En: string(f.Key), Zh: string(f.Key)}
}

// A phrasebook gives keys their sentences: each a function of the fact, reading
// the fields its key's comment names, that says one of the catalogue's
// sentences (Say, a "fact." id) with them.
type phrasebook map[Key]func(*Fact) Text

// sentences is every key's sentence, gathered from the files that say
// them by subject: the engine (words_engine.go), its faults
// (words_faults.go), the lessons' services and clients (words_lessons.go),
// the lock algorithms and libraries (words_locks.go).
var sentences = phrasebook{}

func init() {
	for _, subject := range []phrasebook{engineWords, faultWords, lessonWords, lockWords} {
		for k, say := range subject {
			if _, twice := sentences[k]; twice {
				panic("fact: two sentences for " + string(k))
			}
			sentences[k] = say
		}
	}
}

// join is items one after another, sep between them, in each language.
func join(items []Text, sep Text) Text {
	en, zh := make([]string, len(items)), make([]string, len(items))
	for i, x := range items {
		en[i], zh[i] = x.En, x.Zh
	}
	return Text{En: strings.Join(en, sep.En), Zh: strings.Join(zh, sep.Zh)}
}

// Seconds writes a duration in seconds with millisecond precision, or
// microseconds where they matter: 0s, 1.5s, 0.0005s. It is the one form of
// a virtual time or duration in an event's words and its text line.
func Seconds(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	s := strconv.FormatFloat(d.Seconds(), 'f', 6, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if neg {
		s = "-" + s
	}
	return s + "s"
}

// libSays adds a library's own words (rows 18-19) to a sentence, quoted
// as it wrote them, in every language; none adds nothing.
func libSays(x Text, words string) Text {
	if words == "" {
		return x
	}
	return Say("fact.library-says", x, words)
}
