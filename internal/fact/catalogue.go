package fact

import (
	"fmt"
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
	t := func(en, zh string) Text { return Text{En: en, Zh: zh} }
	s := Seconds
	switch f.Key {
	case RequestLost:
		return t("the request never reached "+f.Node, "请求没有到达 "+f.Node)
	case Down:
		return t(f.Node+" is down", f.Node+" 宕机了")
	case ReplyLost:
		return t("the reply never reached "+f.Client, "回复没有到达 "+f.Client)
	case NewConnection:
		return t("new connection: "+strings.Join(f.Cmds, "; "), "新连接："+strings.Join(f.Cmds, "；"))
	case TTLRanOut:
		if f.Holder != "" && f.Node != "" {
			return t(fmt.Sprintf("TTL ran out; %s's vote on %s is gone (%s still holds the key on %d nodes, a quorum of %d)", f.Holder, f.Node, f.Holder, f.Have, f.Want),
				fmt.Sprintf("TTL 到期，%s 在 %s 上的票没了（%s 仍在 %d 个节点上持有这个 key，达到 %d 个的多数）", f.Holder, f.Node, f.Holder, f.Have, f.Want))
		}
		if f.Holder != "" {
			return t("TTL ran out; "+f.Holder+"'s lock is gone", "TTL 到期，"+f.Holder+" 的锁没了")
		}
		return t("TTL ran out", "TTL 到期")
	case CleanupRows:
		return t(fmt.Sprintf("the rows older than %s (created_ms < %d): %d row(s)", s(f.For), f.Cutoff, f.Rows),
			fmt.Sprintf("早于 %s 的行（created_ms < %d）：%d 行", s(f.For), f.Cutoff, f.Rows))
	case Cleanup:
		what := f.What.marked()
		en, zh := "cleanup job deleted "+what.En, "清理任务删除了"+what.Zh
		if len(f.Holders) > 0 {
			owners := make([]string, len(f.Holders))
			for i, h := range f.Holders {
				owners[i] = h + "'s"
			}
			en += "; " + strings.Join(owners, ", ") + " lock is gone"
			zh += "；" + strings.Join(f.Holders, "、") + " 的锁没了"
		}
		return t(en, zh)
	case CleanupFailed:
		r := f.Reason.marked()
		return t("cleanup job failed: "+r.En, "清理任务失败："+r.Zh)
	case WaitBlocks:
		return t(fmt.Sprintf("WAIT blocks: %s has applied %d of the %d writes shipped", f.Replica, f.Have, f.Want),
			fmt.Sprintf("WAIT 阻塞：%s 只应用了已发送的 %d 个写入中的 %d 个", f.Replica, f.Want, f.Have))
	case WaitTimedOut:
		return f.byEngine(t(fmt.Sprintf("timed out: %s has applied %d of %d writes", f.Replica, f.Have, f.Want),
			fmt.Sprintf("超时：%s 只应用了 %d 个写入中的 %d 个", f.Replica, f.Want, f.Have)))
	case WaitApplied:
		return f.byEngine(t(f.Replica+" has applied every write up to here", f.Replica+" 已经应用了到这里为止的每个写入"))
	case WaitDied:
		return t(f.Node+" died while the WAIT was blocked", f.Node+" 在 WAIT 阻塞期间死了")
	case ReplicaOf:
		if f.Real {
			return t(fmt.Sprintf("replica of %s (lag %s): a redis-server under REPLICAOF, synced by Redis; its stream now waits %s in a relay before it reaches %s",
				f.Node, s(f.For), s(f.For), f.Replica),
				fmt.Sprintf("%s 的副本（延迟 %s）：一个 REPLICAOF 下的 redis-server，由 Redis 同步；它的复制流现在先在中继里等 %s 才到达 %s",
					f.Node, s(f.For), s(f.For), f.Replica))
		}
		return t(fmt.Sprintf("replica of %s (lag %s): full sync", f.Node, s(f.For)), fmt.Sprintf("%s 的副本（延迟 %s）：全量同步", f.Node, s(f.For)))
	case Shipped:
		en := fmt.Sprintf("%s from %s (the write at #%d, %s ago)", strings.Join(f.Cmds, "; "), f.Node, Seq(f.Write), s(f.Ago))
		zh := fmt.Sprintf("来自 %s 的 %s（#%d 的写入，%s 之前）", f.Node, strings.Join(f.Cmds, "；"), Seq(f.Write), s(f.Ago))
		if f.Real {
			en, zh = en+", as Redis streamed it", zh+"，由 Redis 的复制流送达"
		}
		return t(en, zh)
	case ShipLost:
		w := f.What.marked()
		return t("lost, "+f.Replica+" is down: "+w.En, "丢失，"+f.Replica+" 宕机了："+w.Zh)
	case ShipFailed:
		r, w := f.Reason.marked(), f.What.marked()
		return t("failed ("+r.En+"): "+w.En, "失败（"+r.Zh+"）："+w.Zh)
	case NotApplied:
		r := f.Reason.marked()
		if f.What != nil {
			w := f.What.marked()
			return t("not applied ("+r.En+"): "+w.En, "未执行（"+r.Zh+"）："+w.Zh)
		}
		return t("not applied: "+r.En, "未执行："+r.Zh)
	case ServerLost:
		r := f.Reason.marked()
		return t("the server stopped answering ("+r.En+"): the run ends here", "服务器不再应答（"+r.Zh+"）：运行到此结束")

	case Refused:
		return t("connection refused ("+f.Node+" is down)", "连接被拒绝（"+f.Node+" 宕机了）")
	case TimedOut:
		return t("i/o timeout (no reply from "+f.Node+")", "I/O 超时（"+f.Node+" 没有回复）")
	case DeadlinePassed:
		return t("the caller's context deadline passed", "调用方 context 的截止时间已过")
	case Panic:
		return t("panic: "+f.Text, "程序崩溃（panic）："+f.Text)
	case Failed:
		if f.Reason != nil {
			// Text is the words of whoever wrapped the reason (a library's
			// "node #0: …"): quoted as it wrote them, the reason said in 中文.
			return t(f.Text, "出错：\""+f.Text+"\"（"+f.Reason.marked().Zh+"）")
		}
		return t(f.Text, "出错："+f.Text)

	case Crashed:
		if f.For > 0 {
			return t(fmt.Sprintf("%s crashed, restarts in %s", f.Client, s(f.For)), fmt.Sprintf("%s 崩溃了，%s 后重启", f.Client, s(f.For)))
		}
		return t(f.Client+" crashed", f.Client+" 崩溃了")
	case StartsAgain:
		return t(fmt.Sprintf("%s starts again (incarnation %d)", f.Client, f.Incarnation),
			fmt.Sprintf("%s 重新启动（第 %d 次运行）", f.Client, f.Incarnation))
	case Paused:
		return t(fmt.Sprintf("%s stops the world for %s", f.Client, s(f.For)), fmt.Sprintf("%s 停顿（stop-the-world）%s", f.Client, s(f.For)))
	case RunsAgain:
		return t(f.Client+" runs again", f.Client+" 恢复运行")
	case NextRequestLost:
		return t("the next request of "+f.Client+" will be lost", f.Client+" 的下一个请求将会丢失")
	case NextReplyLost:
		return t("the next reply of "+f.Client+" will be lost", f.Client+" 的下一个回复将会丢失")
	case CutOff:
		if f.Client == "" {
			return t(f.Node+" is cut off from every client", f.Node+" 与所有客户端之间的网络断开")
		}
		return t(f.Node+" is cut off from "+f.Client, f.Node+" 与 "+f.Client+" 之间的网络断开")
	case Reachable:
		return t(f.Node+" is reachable again", f.Node+" 又能连通了")
	case BackWithData:
		return t(f.Node+" is back with its data", f.Node+" 恢复了，数据还在")
	case BackEmpty:
		return t(f.Node+" is back, empty (no persistence)", f.Node+" 恢复了，但数据是空的（没有持久化）")
	case ClockJumps:
		return t(fmt.Sprintf("%s's clock jumps by %s", f.Node, s(f.By)), fmt.Sprintf("%s 的时钟跳了 %s", f.Node, s(f.By)))
	case ClockAhead:
		return t(fmt.Sprintf("%s's clock now runs %s ahead", f.Client, s(f.By)), fmt.Sprintf("%s 的时钟现在快了 %s", f.Client, s(f.By)))
	case FailedOver:
		return f.failover()

	case BadFault:
		r := f.Reason.marked()
		return t("sim: bad fault: "+r.En, "故障不适用："+r.Zh)
	case UnknownKind:
		return t(fmt.Sprintf("unknown kind %q", f.Item), fmt.Sprintf("未知的故障类型 %q", f.Item))
	case AlreadyCrashed:
		return t(f.Client+" has already crashed", f.Client+" 已经崩溃了")
	case HasCrashed:
		return t(f.Client+" has crashed", f.Client+" 已经崩溃了")
	case AlreadyPaused:
		return t(fmt.Sprintf("%s is already paused until %s: a pause of %s would end sooner", f.Client, s(f.Until), s(f.For)),
			fmt.Sprintf("%s 已经停顿到 %s：再停顿 %s 会更早结束，什么也不会改变", f.Client, s(f.Until), s(f.For)))
	case IsRunning:
		return t(f.Client+" is running", f.Client+" 正在运行，无需重启")
	case RestartsItself:
		return t(f.Client+" cannot restart itself", f.Client+" 不能重启自己")
	case NeedsAmount:
		return t(f.Item+" needs "+f.Value+": "+f.Text, f.Item+" 需要 "+f.Value+"："+hintZh[f.Item])
	case AlreadyDown:
		return t(f.Node+" is already down", f.Node+" 已经宕机了")
	case NotDown:
		return t(f.Node+" is not down", f.Node+" 没有宕机")
	case ClockCannotJump:
		r := f.Reason.marked()
		return t(f.Node+"'s clock cannot jump: "+r.En, f.Node+" 的时钟不能跳变："+r.Zh)
	case NoReplica:
		return t(f.Node+" has no replica to promote", f.Node+" 没有可以提升的副本")
	case ReplicaDown:
		return t(f.Node+"'s replica "+f.Replica+" is down", f.Node+" 的副本 "+f.Replica+" 宕机了")
	case NodeFailed:
		r := f.Reason.marked()
		return t(f.Node+": "+r.En, f.Node+"："+r.Zh)
	case UnknownClient:
		return t(fmt.Sprintf("sim: unknown client %q", f.Client), fmt.Sprintf("没有客户端 %q", f.Client))
	case UnknownNode:
		return t(fmt.Sprintf("sim: unknown node %q", f.Node), fmt.Sprintf("没有节点 %q", f.Node))
	case ClockNotSet:
		r := f.Reason.marked()
		return t(r.En+" (its clock cannot be set)", r.Zh+"（它的时钟不能设置）")

	case PlainStorage:
		return t("plain storage: every write is accepted", "普通存储：每次写入都被接受")
	case FirstToken:
		return t(fmt.Sprintf("token %d: the first one seen, accepted", f.Token), fmt.Sprintf("令牌 %d：第一次见到，接受", f.Token))
	case TokenAccepted:
		return t(fmt.Sprintf("token %d >= highest seen %d: accepted", f.Token, f.Highest),
			fmt.Sprintf("令牌 %d ≥ 见过的最大令牌 %d：接受", f.Token, f.Highest))
	case RejectedNoToken:
		return t(fmt.Sprintf("rejected: a write without a token (the highest token seen is %d)", f.Highest),
			fmt.Sprintf("被拒绝：没有令牌的写入（见过的最大令牌是 %d）", f.Highest))
	case RejectedOlder:
		return t(fmt.Sprintf("rejected: token %d is older than token %d (the highest token seen is %d)", f.Token, f.Highest, f.Highest),
			fmt.Sprintf("被拒绝：令牌 %d 比令牌 %d 旧（见过的最大令牌是 %d）", f.Token, f.Highest, f.Highest))
	case DuplicateRow:
		return t("duplicate primary key: the lock row exists already", "主键重复：锁的那一行已经存在")

	case HoldOf:
		return t(fmt.Sprintf("hold %d of %d", f.Hold, f.Depth), fmt.Sprintf("重入计数 %d / %d", f.Hold, f.Depth))
	case HoldGivenBack:
		return t(fmt.Sprintf("hold %d of %d given back", f.Hold, f.Depth), fmt.Sprintf("归还一层（%d / %d）", f.Hold, f.Depth))
	case AsksAgain:
		return t(fmt.Sprintf("asks again for the lock it holds (hold %d of %d)", f.Hold, f.Depth),
			fmt.Sprintf("再次请求自己已持有的锁（重入计数 %d / %d）", f.Hold, f.Depth))
	case NotInTime:
		return libSays(t("could not acquire the lock in time", "没能及时拿到锁"), f.Text)
	case CouldNotLock:
		return t("could not lock "+f.Item, "没能锁住 "+f.Item)
	case Kept:
		return t("the request ends without releasing: the unlock is left to a later callback", "请求结束时没有释放锁：解锁留给之后的回调")
	case NoLongerOurs:
		return libSays(t("the lock was no longer ours; left it alone", "锁已经不是我们的了；不去动它"), f.Text)
	case Stock:
		return t(fmt.Sprintf("stock %d -> %d", f.From, f.To), fmt.Sprintf("库存 %d → %d", f.From, f.To))
	case StockRead:
		return t(fmt.Sprintf("read stock %d; not written back yet", f.From), fmt.Sprintf("读到库存 %d，还没写回", f.From))
	case NoStock:
		return t("no stock left", "没有库存了")
	case Dispatch:
		return t(fmt.Sprintf("request %d runs on pool thread %s", f.Request, f.Thread), fmt.Sprintf("请求 %d 在线程池线程 %s 上运行", f.Request, f.Thread))
	case NothingListed:
		return t("nothing listed", "没有上架的商品")
	case ItemNamed:
		return t(f.Item, "商品 "+f.Item)
	case AlreadySold:
		return t(f.Item+" was already sold", f.Item+" 已经被卖掉了")
	case StorageRefused:
		return t(fmt.Sprintf("the storage refused fencing token %d", f.Token), fmt.Sprintf("存储拒绝了 fencing 令牌 %d", f.Token))
	case StorageAccepted:
		if f.Token == 0 {
			return t("the storage accepted the write", "存储接受了写入")
		}
		return t(fmt.Sprintf("the storage accepted fencing token %d", f.Token), fmt.Sprintf("存储接受了 fencing 令牌 %d", f.Token))
	case LocalMutex:
		return t("local mutex", "本地互斥锁")
	case LocalMutexHeldBy:
		return t("local mutex is held by "+f.Holder, "本地互斥锁被 "+f.Holder+" 持有")

	case Replicated:
		return t(fmt.Sprintf("WAIT: %d of %d replicas have the lock", f.Have, f.Want), fmt.Sprintf("WAIT：%d 个副本中有 %d 个拿到了锁", f.Want, f.Have))
	case NotReplicated:
		if f.Reason != nil {
			r := f.Reason.marked()
			return t("WAIT failed ("+r.En+"); releasing", "WAIT 失败（"+r.Zh+"）；释放锁")
		}
		return t(fmt.Sprintf("WAIT: only %d of %d replicas confirmed; releasing", f.Have, f.Want),
			fmt.Sprintf("WAIT：%d 个副本中只有 %d 个确认；释放锁", f.Want, f.Have))
	case Repair:
		return t("the lock has no TTL: its holder died before EXPIRE; setting it", "锁没有 TTL：持有者在 EXPIRE 之前就死了；现在补上")
	case NoWatchdog:
		return t("this process cannot start threads", "这个进程不能启动线程")
	case RenewLost:
		return t("the lock is no longer ours: the watchdog stops", "锁已经不是我们的了：看门狗停止")
	case Renewed:
		return t("expire "+s(f.For), "续期到 "+s(f.For))
	case RenewedOrphan:
		return t("expire "+s(f.For)+", for a thread that died on an error: an orphaned watchdog, nobody will release the lock",
			"续期到 "+s(f.For)+"，可它续期的线程已经因错误死了：孤儿看门狗，再也没有人会释放这把锁")
	case ValidUntil:
		return t("Until() is "+s(f.For)+" from now (now + expiry - elapsed - drift)", "Until() 距现在还有 "+s(f.For)+"（now + expiry − 耗时 − 漂移）")
	case Extended:
		return t("Until() is "+s(f.For)+" from now", "Until() 距现在还有 "+s(f.For))
	case ExtendFailed:
		return libSays(t("Extend failed: the lock is not held on a quorum any more; the loop stops", "延期失败：锁已经不在多数节点上了；循环停止"), f.Text)
	case Refreshed:
		return t("pexpire "+s(f.For), "PEXPIRE 续期到 "+s(f.For))
	case RefreshFailed:
		return libSays(t("Refresh failed; the loop stops", "刷新失败；循环停止"), f.Text)
	case LeaseEnded:
		if f.Holder == "" {
			return t("the lease ended: etcd deleted "+f.Item, "租约结束：etcd 删除了 "+f.Item)
		}
		return t("the lease of "+f.Holder+"'s session ended: etcd deleted "+f.Item+"; "+f.Holder+" has not been told",
			f.Holder+" 的会话租约结束：etcd 删除了 "+f.Item+"；"+f.Holder+" 还没有被告知")
	case SessionExpired:
		if f.Holder == "" {
			return t("a session expired: ZooKeeper deleted "+f.Item, "会话过期：ZooKeeper 删除了 "+f.Item)
		}
		return t(f.Holder+"'s session expired: ZooKeeper deleted "+f.Item+"; "+f.Holder+" has not been told",
			f.Holder+" 的会话过期了：ZooKeeper 删除了 "+f.Item+"；"+f.Holder+" 还没有被告知")
	case SessionLost:
		return t(f.Client+"'s client hears that its session expired: only now can it learn that its lock node is gone",
			f.Client+" 的客户端得知会话已过期：直到此刻它才能知道自己的锁节点已经没了")
	case Watching:
		return t(f.Client+" watches only "+f.Item+", the node just below its own, and waits",
			f.Client+" 只监视 "+f.Item+"（排在它前面的那个节点），然后等待")
	case Woken:
		return t(f.Item+" is gone: "+f.Client+"'s watch fires, and only "+f.Client+" wakes",
			f.Item+" 没了："+f.Client+" 的监视触发，只有 "+f.Client+" 被唤醒")
	case ServerStopped:
		return t(f.Node+" is stopped for "+s(f.For)+" (SIGSTOP of its JVM): it answers nothing, and the clock its sessions are kept by runs on",
			f.Node+" 被停住 "+s(f.For)+"（向它的 JVM 发 SIGSTOP）：它什么也不回答，而它管理会话所用的时钟照常走")
	case ServerResumed:
		return t(f.Node+" runs again (SIGCONT): its session tracker finds every deadline passed, and races the pings the kernel queued while it was stopped",
			f.Node+" 恢复运行（SIGCONT）：它的会话跟踪器发现所有期限都已过去，与停住期间内核排队的心跳赛跑")
	case PauseExpiredAll:
		return t(fmt.Sprintf("This run: the session tracker won the race and expired every session at once, the healthy holder's with the waiter's (as it did in %d of %d runs measured). The outcome is a race inside ZooKeeper, not a rule: in other runs the queued pings win and every session lives on, or the race splits.", f.Have, f.Want),
			fmt.Sprintf("这一次：会话跟踪器赢了这场赛跑，一下子让所有会话过期，健康的持有者和等待者一起（实测 %d 次中有 %d 次如此）。结果是 ZooKeeper 内部的一场竞争，不是规律：在别的几次里，是排队的心跳先到、所有会话都活了下来，或者这场竞争分开了。", f.Want, f.Have))
	case PauseOutlived:
		return t(fmt.Sprintf("This run: the pings queued while the server was stopped reached it first and touched the sessions, so every session lived on (as it did in %d of %d runs measured). The outcome is a race inside ZooKeeper, not a rule: in most runs the session tracker wins and expires every session at once.", f.Have, f.Want),
			fmt.Sprintf("这一次：服务器停住期间排队的心跳先到，刷新了会话，所以所有会话都活了下来（实测 %d 次中有 %d 次如此）。结果是 ZooKeeper 内部的一场竞争，不是规律：多数时候是会话跟踪器先赢，一下子让所有会话过期。", f.Want, f.Have))
	case PauseSplit:
		return t(fmt.Sprintf("This run: the race split: %s's session expired on the resume and %s's lived on (as it did in %d of %d runs measured). The outcome is a race inside ZooKeeper, not a rule: in most runs every session expires at once, in some every session lives on.", f.Holder, f.Client, f.Have, f.Want),
			fmt.Sprintf("这一次：这场竞争分开了：恢复时 %s 的会话过期了，%s 的会话活了下来（实测 %d 次中有 %d 次如此）。结果是 ZooKeeper 内部的一场竞争，不是规律：多数时候所有会话一下子都过期，有时所有会话都活下来。", f.Holder, f.Client, f.Want, f.Have))
	case SessionDone:
		return t(f.Client+"'s Session.Done fired: only now can it learn that its lease is gone",
			f.Client+" 的 Session.Done 触发了：直到此刻它才能得知自己的租约已经没了")
	case NotOwner:
		return t("Txn If IsOwner() failed: "+f.Client+"'s key is no longer the lock's first, so nothing was written",
			"Txn If IsOwner() 失败："+f.Client+" 的键已不是锁的第一个，所以什么也没写")
	case RealTime:
		return t("live server, real time: the same schedule gives the same verdict, not the same milliseconds",
			"真实服务器、真实时间：同样的安排得到同样的结论，但不是同样的毫秒数")
	case Token:
		return t(fmt.Sprintf("fencing token %d", f.Token), fmt.Sprintf("fencing 令牌 %d", f.Token))
	case ExecFailed:
		return t(fmt.Sprintf("EXEC failed %d times", f.Tries), fmt.Sprintf("EXEC 失败了 %d 次", f.Tries))
	case ExecRetry:
		return t(fmt.Sprintf("EXEC answered nil: a watched key changed (retry %d)", f.Tries), fmt.Sprintf("EXEC 返回 nil：被监视的键变了（第 %d 次重试）", f.Tries))
	case StampPassed:
		return t("the lock's timestamp "+f.Value+" has passed by this client's clock", "按这个客户端的时钟，锁的时间戳 "+f.Value+" 已经过了")
	case Quorum, TooLate, NoQuorum:
		return f.votes()
	}
	return t(string(f.Key), string(f.Key))
}

// hintZh says, in Chinese, what the amount of a fault kind is (the
// English is the hint of its row of the engine's vocabulary).
var hintZh = map[string]string{
	"pause":      "停多久，例如 1s",
	"clock-jump": "跳多少，例如 5s 或 -5s",
	"skew":       "时钟快多少，例如 2s",
}

// byEngine adds, to a WAIT's answer, that the engine gave it.
func (f *Fact) byEngine(x Text) Text {
	if f.Engine {
		x.En += " (answered by the engine from the replica's confirmed replication offset)"
		x.Zh += "（由引擎根据副本已确认的复制偏移量作答）"
	}
	return x
}

// failover says how a master died and its replica took over.
func (f *Fact) failover() Text {
	en, zh := f.Node+" dies", f.Node+" 死了"
	if f.Real {
		en, zh = en+" (its redis-server process is killed)", zh+"（它的 redis-server 进程被杀掉）"
	}
	if len(f.Cmds) > 0 {
		en += fmt.Sprintf(" before replicating %s (lost)", strings.Join(f.Cmds, "; "))
		zh = fmt.Sprintf("%s 在把 %s 复制出去之前死了（丢失）", f.Node, strings.Join(f.Cmds, "；"))
		if f.Real {
			zh = fmt.Sprintf("%s 在把 %s 复制出去之前死了（丢失；它的 redis-server 进程被杀掉）", f.Node, strings.Join(f.Cmds, "；"))
		}
	} else {
		en += " with every write replicated"
		zh += "，所有写入都已复制"
	}
	how, howZh := "", ""
	if f.Real {
		how, howZh = " with REPLICAOF NO ONE", "（用 REPLICAOF NO ONE）"
	}
	en += fmt.Sprintf("; %s is promoted%s: clients asking for %s now reach %s", f.Replica, how, f.Node, f.Replica)
	zh += fmt.Sprintf("；%s 被提升为主节点%s：访问 %s 的客户端现在连到 %s", f.Replica, howZh, f.Node, f.Replica)
	return Text{En: en, Zh: zh}
}

// votes says how a Redlock vote went.
func (f *Fact) votes() Text {
	v := f.Votes
	if v == nil {
		v = &Votes{}
	}
	where, whereZh := "every master", "每个主节点"
	if v.ReleasedOn == ReleaseYes {
		where, whereZh = "the masters that said yes (a lease of ours is still held)", "投了赞成票的主节点（我们在那里的租约还在）"
	}
	got := fmt.Sprintf("%d/%d in %s", v.Yes, v.Of, v.Elapsed)
	gotZh := fmt.Sprintf("%s 内拿到 %d/%d 票", v.Elapsed, v.Yes, v.Of)
	validity := fmt.Sprintf("validity %s = ttl %s - elapsed %s - drift %s", v.Validity, v.TTL, v.Elapsed, v.Drift)
	validityZh := fmt.Sprintf("有效期 %s = TTL %s − 耗时 %s − 漂移 %s", v.Validity, v.TTL, v.Elapsed, v.Drift)
	switch f.Key {
	case Quorum:
		return Text{En: got + ", " + validity, Zh: gotZh + "，" + validityZh}
	case TooLate:
		return Text{En: got + ", " + validity + ": no time left, releasing on " + where,
			Zh: gotZh + "，" + validityZh + "：没有剩余时间，在" + whereZh + "上释放"}
	}
	return Text{En: fmt.Sprintf("%s, need %d: releasing on %s", got, v.Need, where),
		Zh: fmt.Sprintf("%s，需要 %d 票：在%s上释放", gotZh, v.Need, whereZh)}
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
// as it wrote them, in both languages; none adds nothing.
func libSays(x Text, words string) Text {
	if words == "" {
		return x
	}
	return Text{En: x.En + " (the library says: \"" + words + "\")", Zh: x.Zh + "（库的原话：\"" + words + "\"）"}
}
