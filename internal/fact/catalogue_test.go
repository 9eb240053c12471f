package fact

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// examples holds one fact of every key, with the fields its sentence
// reads, and the English the log has always shown for it.
var examples = []struct {
	f  Fact
	en string
}{
	{Fact{Key: RequestLost, Node: "r4"}, "the request never reached r4"},
	{Fact{Key: Down, Node: "r3"}, "r3 is down"},
	{Fact{Key: ReplyLost, Client: "A"}, "the reply never reached A"},
	{Fact{Key: NewConnection, Cmds: []string{"HELLO 2"}}, "new connection: HELLO 2"},
	{Fact{Key: TTLRanOut, Holder: "A"}, "TTL ran out; A's lock is gone"},
	{Fact{Key: TTLRanOut, Holder: "A", Node: "r3", Have: 3, Want: 3}, "TTL ran out; A's vote on r3 is gone (A still holds the key on 3 nodes, a quorum of 3)"},
	{Fact{Key: CleanupRows, For: 10 * time.Second, Cutoff: 500, Rows: 1}, "the rows older than 10s (created_ms < 500): 1 row(s)"},
	{Fact{Key: Cleanup, What: &Fact{Key: CleanupRows, For: time.Second, Cutoff: 5, Rows: 2}, Holders: []string{"A", "B"}},
		"cleanup job deleted the rows older than 1s (created_ms < 5): 2 row(s); A's, B's lock is gone"},
	{Fact{Key: CleanupFailed, Reason: &Fact{Key: Failed, Text: "disk full"}}, "cleanup job failed: disk full"},
	{Fact{Key: WaitBlocks, Replica: "replica", Have: 0, Want: 1}, "WAIT blocks: replica has applied 0 of the 1 writes shipped"},
	{Fact{Key: WaitTimedOut, Replica: "replica", Have: 0, Want: 1, Engine: true},
		"timed out: replica has applied 0 of 1 writes (answered by the engine from the replica's confirmed replication offset)"},
	{Fact{Key: WaitApplied, Replica: "replica"}, "replica has applied every write up to here"},
	{Fact{Key: WaitDied, Node: "master"}, "master died while the WAIT was blocked"},
	{Fact{Key: ReplicaOf, Node: "master", For: 50 * time.Millisecond}, "replica of master (lag 0.05s): full sync"},
	{Fact{Key: Shipped, Cmds: []string{"SET lock 7f3a"}, Node: "master", Write: 5, Ago: 50 * time.Millisecond},
		"SET lock 7f3a from master (the write at #5, 0.05s ago)"},
	{Fact{Key: ShipLost, Replica: "replica", What: &Fact{Key: Shipped, Cmds: []string{"DEL lock"}, Node: "master", Write: 9, Ago: time.Second}},
		"lost, replica is down: DEL lock from master (the write at #9, 1s ago)"},
	{Fact{Key: ShipFailed, Reason: &Fact{Key: Failed, Text: "EOF"}, What: &Fact{Key: Shipped, Cmds: []string{"DEL lock"}, Node: "m", Write: 9, Ago: time.Second}},
		"failed (EOF): DEL lock from m (the write at #9, 1s ago)"},
	{Fact{Key: NotApplied, Reason: &Fact{Key: Failed, Text: "sim: bad fault: redis is not down"}}, "not applied: sim: bad fault: redis is not down"},
	{Fact{Key: ServerLost, Reason: &Fact{Key: Failed, Text: "EOF"}}, "the server stopped answering (EOF): the run ends here"},
	{Fact{Key: Refused, Node: "redis"}, "connection refused (redis is down)"},
	{Fact{Key: TimedOut, Node: "redis"}, "i/o timeout (no reply from redis)"},
	{Fact{Key: Panic, Text: "boom"}, "panic: boom"},
	{Fact{Key: Failed, Text: "redis: nil"}, "redis: nil"},
	{Fact{Key: Crashed, Client: "A", For: 2 * time.Second}, "A crashed, restarts in 2s"},
	{Fact{Key: StartsAgain, Client: "A", Incarnation: 2}, "A starts again (incarnation 2)"},
	{Fact{Key: Paused, Client: "A", For: 4 * time.Second}, "A stops the world for 4s"},
	{Fact{Key: RunsAgain, Client: "A"}, "A runs again"},
	{Fact{Key: NextRequestLost, Client: "A"}, "the next request of A will be lost"},
	{Fact{Key: NextReplyLost, Client: "A"}, "the next reply of A will be lost"},
	{Fact{Key: CutOff, Node: "r4", Client: "A"}, "r4 is cut off from A"},
	{Fact{Key: Reachable, Node: "r4"}, "r4 is reachable again"},
	{Fact{Key: BackWithData, Node: "r3"}, "r3 is back with its data"},
	{Fact{Key: BackEmpty, Node: "r3"}, "r3 is back, empty (no persistence)"},
	{Fact{Key: ClockJumps, Node: "r3", By: 10 * time.Second}, "r3's clock jumps by 10s"},
	{Fact{Key: ClockAhead, Client: "A", By: 2 * time.Second}, "A's clock now runs 2s ahead"},
	{Fact{Key: FailedOver, Node: "master", Replica: "replica"},
		"master dies with every write replicated; replica is promoted: clients asking for master now reach replica"},
	{Fact{Key: BadFault, Reason: &Fact{Key: NotDown, Node: "redis"}}, "sim: bad fault: redis is not down"},
	{Fact{Key: UnknownKind, Item: "meteor"}, `unknown kind "meteor"`},
	{Fact{Key: AlreadyCrashed, Client: "A"}, "A has already crashed"},
	{Fact{Key: HasCrashed, Client: "A"}, "A has crashed"},
	{Fact{Key: AlreadyPaused, Client: "A", Until: 5002 * time.Millisecond, For: time.Second}, "A is already paused until 5.002s: a pause of 1s would end sooner"},
	{Fact{Key: IsRunning, Client: "A"}, "A is running"},
	{Fact{Key: RestartsItself, Client: "A"}, "A cannot restart itself"},
	{Fact{Key: NeedsAmount, Item: "pause", Value: "for", Text: "how long, e.g. 1s"}, "pause needs for: how long, e.g. 1s"},
	{Fact{Key: AlreadyDown, Node: "r3"}, "r3 is already down"},
	{Fact{Key: NotDown, Node: "r3"}, "r3 is not down"},
	{Fact{Key: ClockCannotJump, Node: "redis", Reason: &Fact{Key: Failed, Text: "a real server"}}, "redis's clock cannot jump: a real server"},
	{Fact{Key: NoReplica, Node: "redis"}, "redis has no replica to promote"},
	{Fact{Key: ReplicaDown, Node: "master", Replica: "replica"}, "master's replica replica is down"},
	{Fact{Key: NodeFailed, Node: "redis", Reason: &Fact{Key: Failed, Text: "EOF"}}, "redis: EOF"},
	{Fact{Key: UnknownClient, Client: "Z"}, `sim: unknown client "Z"`},
	{Fact{Key: UnknownNode, Node: "r9"}, `sim: unknown node "r9"`},
	{Fact{Key: ClockNotSet, Reason: &Fact{Key: Failed, Text: "no DEBUG"}}, "no DEBUG (its clock cannot be set)"},
	{Fact{Key: PlainStorage}, "plain storage: every write is accepted"},
	{Fact{Key: FirstToken, Token: 2}, "token 2: the first one seen, accepted"},
	{Fact{Key: TokenAccepted, Token: 3, Highest: 2}, "token 3 >= highest seen 2: accepted"},
	{Fact{Key: RejectedNoToken, Highest: 2}, "rejected: a write without a token (the highest token seen is 2)"},
	{Fact{Key: RejectedOlder, Token: 1, Highest: 2}, "rejected: token 1 is older than token 2 (the highest token seen is 2)"},
	{Fact{Key: DuplicateRow}, "duplicate primary key: the lock row exists already"},
	{Fact{Key: HoldOf, Hold: 1, Depth: 2}, "hold 1 of 2"},
	{Fact{Key: HoldGivenBack, Hold: 2, Depth: 2}, "hold 2 of 2 given back"},
	{Fact{Key: AsksAgain, Hold: 2, Depth: 3}, "asks again for the lock it holds (hold 2 of 3)"},
	{Fact{Key: NotInTime}, "could not acquire the lock in time"},
	{Fact{Key: CouldNotLock, Item: "book"}, "could not lock book"},
	{Fact{Key: Kept}, "the request ends without releasing: the unlock is left to a later callback"},
	{Fact{Key: NoLongerOurs}, "the lock was no longer ours; left it alone"},
	{Fact{Key: Stock, From: 10, To: 9}, "stock 10 -> 9"},
	{Fact{Key: StockRead, From: 10}, "read stock 10; not written back yet"},
	{Fact{Key: NoStock}, "no stock left"},
	{Fact{Key: Dispatch, Request: 1, Thread: "exec-1"}, "request 1 runs on pool thread exec-1"},
	{Fact{Key: NothingListed}, "nothing listed"},
	{Fact{Key: ItemNamed, Item: "book"}, "book"},
	{Fact{Key: AlreadySold, Item: "book"}, "book was already sold"},
	{Fact{Key: StorageRefused, Token: 1}, "the storage refused fencing token 1"},
	{Fact{Key: StorageAccepted, Token: 2}, "the storage accepted fencing token 2"},
	{Fact{Key: LocalMutex}, "local mutex"},
	{Fact{Key: LocalMutexHeldBy, Holder: "req1"}, "local mutex is held by req1"},
	{Fact{Key: Replicated, Have: 1, Want: 1}, "WAIT: 1 of 1 replicas have the lock"},
	{Fact{Key: NotReplicated, Have: 0, Want: 1}, "WAIT: only 0 of 1 replicas confirmed; releasing"},
	{Fact{Key: Repair}, "the lock has no TTL: its holder died before EXPIRE; setting it"},
	{Fact{Key: NoWatchdog}, "this process cannot start threads"},
	{Fact{Key: RenewLost}, "the lock is no longer ours: the watchdog stops"},
	{Fact{Key: Renewed, For: 30 * time.Second}, "expire 30s"},
	{Fact{Key: RenewedOrphan, For: 3 * time.Second}, "expire 3s, for a thread that died on an error: an orphaned watchdog, nobody will release the lock"},
	{Fact{Key: Token, Token: 33}, "fencing token 33"},
	{Fact{Key: ExecFailed, Tries: 3}, "EXEC failed 3 times"},
	{Fact{Key: ExecRetry, Tries: 1}, "EXEC answered nil: a watched key changed (retry 1)"},
	{Fact{Key: StampPassed, Value: "1700000002001"}, "the lock's timestamp 1700000002001 has passed by this client's clock"},
	{Fact{Key: Quorum, Votes: &Votes{Yes: 3, Of: 5, Need: 3, Elapsed: 50 * time.Millisecond, Validity: 9848 * time.Millisecond, TTL: 10 * time.Second, Drift: 102 * time.Millisecond}},
		"3/5 in 50ms, validity 9.848s = ttl 10s - elapsed 50ms - drift 102ms"},
	{Fact{Key: TooLate, Votes: &Votes{Yes: 5, Of: 5, Need: 3, Elapsed: 11 * time.Second, Validity: -1102 * time.Millisecond, TTL: 10 * time.Second, Drift: 102 * time.Millisecond, ReleasedOn: ReleaseAll}},
		"5/5 in 11s, validity -1.102s = ttl 10s - elapsed 11s - drift 102ms: no time left, releasing on every master"},
	{Fact{Key: NoQuorum, Votes: &Votes{Yes: 2, Of: 5, Need: 3, Elapsed: 50 * time.Millisecond, ReleasedOn: ReleaseYes}},
		"2/5 in 50ms, need 3: releasing on the masters that said yes (a lease of ours is still held)"},
	{Fact{Key: DeadlinePassed}, "the caller's context deadline passed"},
	{Fact{Key: ValidUntil, For: 1978 * time.Millisecond}, "Until() is 1.978s from now (now + expiry - elapsed - drift)"},
	{Fact{Key: Extended, For: 2966 * time.Millisecond}, "Until() is 2.966s from now"},
	{Fact{Key: ExtendFailed, Text: "lock already taken, locked nodes: [2 1]"},
		`Extend failed: the lock is not held on a quorum any more; the loop stops (the library says: "lock already taken, locked nodes: [2 1]")`},
	{Fact{Key: Refreshed, For: 3 * time.Second}, "pexpire 3s"},
	{Fact{Key: RefreshFailed, Text: "redislock: not obtained"}, `Refresh failed; the loop stops (the library says: "redislock: not obtained")`},
	{Fact{Key: LeaseEnded, Holder: "A", Item: "job/694d"}, "the lease of A's session ended: etcd deleted job/694d; A has not been told"},
	{Fact{Key: SessionDone, Client: "A"}, "A's Session.Done fired: only now can it learn that its lease is gone"},
	{Fact{Key: NotOwner, Client: "A"}, "Txn If IsOwner() failed: A's key is no longer the lock's first, so nothing was written"},
	{Fact{Key: SessionExpired, Holder: "A", Item: "job/lock-0000000000"}, "A's session expired: ZooKeeper deleted job/lock-0000000000; A has not been told"},
	{Fact{Key: SessionLost, Client: "A"}, "A's client hears that its session expired: only now can it learn that its lock node is gone"},
	{Fact{Key: Watching, Client: "C", Item: "job/lock-0000000001"}, "C watches only job/lock-0000000001, the node just below its own, and waits"},
	{Fact{Key: Woken, Client: "C", Item: "job/lock-0000000001"}, "job/lock-0000000001 is gone: C's watch fires, and only C wakes"},
	{Fact{Key: ServerStopped, Node: "zookeeper", For: time.Second}, "zookeeper is stopped for 1s (SIGSTOP of its JVM): it answers nothing, and the clock its sessions are kept by runs on"},
	{Fact{Key: ServerResumed, Node: "zookeeper"}, "zookeeper runs again (SIGCONT): its session tracker finds every deadline passed, and races the pings the kernel queued while it was stopped"},
	{Fact{Key: PauseExpiredAll, Have: 8, Want: 10}, "This run: the session tracker won the race and expired every session at once, the healthy holder's with the waiter's (as it did in 8 of 10 runs measured). The outcome is a race inside ZooKeeper, not a rule: in other runs the queued pings win and every session lives on, or the race splits."},
	{Fact{Key: PauseOutlived, Have: 2, Want: 10}, "This run: the pings queued while the server was stopped reached it first and touched the sessions, so every session lived on (as it did in 2 of 10 runs measured). The outcome is a race inside ZooKeeper, not a rule: in most runs the session tracker wins and expires every session at once."},
	{Fact{Key: PauseSplit, Holder: "A", Client: "B", Have: 1, Want: 23}, "This run: the race split: A's session expired on the resume and B's lived on (as it did in 1 of 23 runs measured). The outcome is a race inside ZooKeeper, not a rule: in most runs every session expires at once, in some every session lives on."},
	{Fact{Key: EtcdServerStopped, Node: "etcd", For: 3 * time.Second}, "etcd is stopped for 3s (SIGSTOP of its process): it answers nothing, and the wall clock its leases end by runs on"},
	{Fact{Key: EtcdServerResumed, Node: "etcd"}, "etcd runs again (SIGCONT): every lease whose end passed while it was stopped is expired, and a keep-alive that arrives late cannot renew it"},
	{Fact{Key: EtcdPauseDropped, Holder: "A", Have: 12, Want: 12}, "This run: the server revoked A's lease after its resume and deleted its key while A, never paused itself, was inside (as it did in 12 of 12 runs measured)."},
	{Fact{Key: EtcdPauseKept, Holder: "A", Have: 0, Want: 12}, "This run: A's lease lived on through the server's pause (as it did in 0 of 12 runs measured): its key was not deleted after the resume."},
	{Fact{Key: EtcdServerCrashed, Node: "etcd", For: time.Second}, "etcd is killed (SIGKILL of its process) and stays down for 1s: it answers nothing and forgets everything in memory; its log and its leases are on disk"},
	{Fact{Key: EtcdServerRestarted, Node: "etcd"}, "etcd starts again on the same data directory: it reads every lease back from disk and, elected leader, gives each one its full TTL again from now"},
	{Fact{Key: EtcdRestartKept, Holder: "A", Have: 10, Want: 10}, "This run: A's lease lived through the restart and its key was never deleted: its keep-alive reached the restarted server before its client's own deadline, so no one else entered while A held the lock (as in 10 of 10 runs measured)."},
	{Fact{Key: EtcdRestartLost, Holder: "A", Have: 0, Want: 10}, "This run: A's lease ended after the restart and the server deleted its key while A was inside (as in 0 of 10 runs measured): its client gave up on the lease during the outage (its keep-alive's own deadline passed) and renewed it no more."},
	{Fact{Key: RealTime}, "live server, real time: the same schedule gives the same verdict, not the same milliseconds"},
}

// Every key of the catalogue has its sentence in English, as the log has
// always written it, and in Chinese: a key added without its Chinese, or a
// rewording of the English, fails here.
func TestEveryKeySaysItInBothLanguages(t *testing.T) {
	seen := map[Key]bool{}
	for _, x := range examples {
		seen[x.f.Key] = true
		got := x.f.Render()
		if got.En != x.en {
			t.Errorf("%s: English %q, want %q", x.f.Key, got.En, x.en)
		}
		if !hasHan(got.Zh) {
			t.Errorf("%s: no Chinese (%q)", x.f.Key, got.Zh)
		}
	}
	for _, k := range Keys {
		if !seen[k] {
			t.Errorf("key %s has no example here", k)
		}
	}
	if got := (&Fact{Key: "no-such-key"}).Render(); hasHan(got.Zh) {
		t.Errorf("an unknown key should say only its name, got %+v", got)
	}
}

// Keys lists every Key constant declared in the package, once.
func TestKeysListsEveryKey(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "catalogue.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "Key" {
			for _, name := range vs.Names {
				declared = append(declared, name.Name)
			}
		}
		return true
	})
	var listed []string
	for _, k := range Keys {
		for _, x := range examples {
			if x.f.Key == k {
				listed = append(listed, string(k))
				break
			}
		}
	}
	if len(declared) != len(Keys) {
		t.Errorf("%d keys declared, %d in Keys", len(declared), len(Keys))
	}
	if len(slices.Compact(slices.Sorted(slices.Values(listed)))) != len(Keys) {
		t.Errorf("Keys lists a key twice")
	}
}

// The engine's errors state facts; an error wrapped around one keeps its
// own words in English and says the fact's in Chinese.
func TestErrorStatesTheFactOfAKnownError(t *testing.T) {
	refused := stater{&Fact{Key: Refused, Node: "redis"}}
	if got := Error(refused); got.Key != Refused || got.Node != "redis" {
		t.Errorf("a bare refused connection gives %+v", got)
	}
	wrapped := fmt.Errorf("lock: release: %w", refused)
	got := Error(wrapped)
	if got.Key != Failed || got.Render().En != "lock: release: connection refused (redis is down)" || got.Reason.Key != Refused {
		t.Errorf("a wrapped refusal gives %+v", got)
	}
	if !strings.Contains(got.Render().Zh, "连接被拒绝") {
		t.Errorf("its Chinese does not say the refusal: %q", got.Render().Zh)
	}
	// the wrapper's own words (a library's "node #0: …") are quoted, not
	// left as English in the Chinese
	if zh := got.Render().Zh; !strings.Contains(zh, `"lock: release: connection refused (redis is down)"`) {
		t.Errorf("its Chinese does not quote the wrapper's words: %q", zh)
	}
	if Error(nil) != nil {
		t.Error("no error states no fact")
	}
	if got := Error(errors.New("redis: nil")); got.Key != Failed || got.Reason != nil || got.Render().En != "redis: nil" {
		t.Errorf("an unknown error gives %+v", got)
	}
}

type stater struct{ f *Fact }

func (s stater) Error() string { return s.f.Render().En }
func (s stater) Fact() *Fact   { return s.f }

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}
