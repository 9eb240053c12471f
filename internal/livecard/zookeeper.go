package livecard

import (
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// zkRow is ZooKeeper's lock recipe (ephemeral sequential nodes, each
// waiter watching its predecessor, the protected create) writing the
// resource with w: a plain setData, or a write fenced by the lock node's
// creation zxid, which the resource refuses when it has taken a higher
// one.
func zkRow(w zookeeper.Write) Row {
	fenced := w == zookeeper.Fenced
	r := Row{Algorithm: zookeeper.AlgorithmID, Variant: "setData", service: "zookeeper", Storage: fenced,
		Title: "ZooKeeper's lock recipe on " + zookeeper.Library + ", each holder writing the resource with a plain setData",
		Needs: []sim.Text{{En: "a ZooKeeper ensemble (Java)", Zh: "一个 ZooKeeper 集群（Java）"}},
		Advice: sim.Text{
			En: "Two holders at once when the holder stalls past its session, and its plain setData lands: the recipe tells the holder nothing until it reconnects. Write with its node's czxid as a fencing token.",
			Zh: "持有者停顿超过会话时会同时出现两个持有者，它的普通 setData 照样落地：直到重连，这个配方什么也不告诉持有者。请用它的节点的 czxid 作 fencing 令牌写入。"},
	}
	if fenced {
		r.Variant = "czxid token"
		r.Title = "ZooKeeper's lock recipe on " + zookeeper.Library + ", each holder writing the resource with its lock node's creation zxid as a fencing token"
		r.Needs = append(r.Needs, sim.Text{En: "a resource that checks the czxid token of every write", Zh: "会检查每次写入的 czxid 令牌的资源"})
		r.Advice = sim.Text{
			En: "Safe at the resource in every run: a stalled holder may still believe it holds, but its token is below the one the resource has taken. Fence every write with the czxid.",
			Zh: "每次运行在资源处都是安全的：停顿的持有者也许仍以为自己持有锁，但它的令牌小于资源已接受的令牌。每次写入都用 czxid 加栅栏。"}
	}
	pair := func(f zookeeper.Fault) *zookeeper.Lesson {
		return &zookeeper.Lesson{ID: "card-zookeeper-lock", Session: zkSession, Workers: []zookeeper.Worker{
			{Name: "A", Work: work, Write: w, Fault: f},
			{Name: "B", Start: bStarts, Work: work, Write: w},
		}}
	}
	either := func(plain, token string) string {
		if fenced {
			return token
		}
		return plain
	}
	cells := map[string]Cell{
		// Two workers, twice each, no fault: the lowest node holds and the
		// next waits on its predecessor's deletion (measured: the
		// zookeeper-two-workers lesson, safe 20 of 20). Argued: unbroken.
		"contention": {ZooKeeper: &zookeeper.Lesson{ID: "card-zookeeper-lock", Session: zkSession, Workers: []zookeeper.Worker{
			{Name: "A", Rounds: 2, Work: work, Write: w}, {Name: "B", Rounds: 2, Work: work, Write: w}}},
			Placement: sim.Text{En: "A and B take the lock twice each, 500ms sessions, no fault", Zh: "A 和 B 各拿两次锁，500 毫秒会话，没有故障"},
			Argued:    report.Unbroken},
		// The reply to A's create of its lock node is lost and that
		// connection breaks (the node was made). Either the node outlives
		// A's reconnection and the recipe's protected create finds it by
		// its GUID (ZOOKEEPER-1262's fix), or, as a probe of one run
		// showed on this loaded machine, A's 500ms session ends while it
		// reconnects, its node goes with it, B takes the lock, and A
		// creates a new node after B. No orphan blocks B and nobody is
		// inside with anyone. Argued: unbroken.
		"lost-reply": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultDropReply, At: zookeeper.AsItAsks}),
			Placement: sim.Text{En: "the reply to A's create of its lock node is lost (the node was made) and its connection breaks",
				Zh: "A 创建锁节点的回复丢失（节点已创建），它的连接断开"},
			Argued: report.Unbroken},
		// A freezes 2s as it enters (its pings stop): the server expires
		// its 500ms session and deletes its node, B takes the lock and
		// writes while A is inside. A's plain setData lands after B's
		// (mutual-exclusion, stale-write: the zookeeper-frozen-holder
		// lesson, 20 of 20); a write fenced by A's czxid is below B's and
		// refused. Argued: broke (setData), unbroken at the resource
		// (token).
		"pause": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultPause, At: sim.MarkEnter, For: zkFreeze}),
			Placement: sim.Text{En: "A stops the world for 2s (4× its 500ms session) as it enters: its program and its connection freeze, its pings with them",
				Zh: "A 进入临界区时整个进程停顿 2 秒（500 毫秒会话的 4 倍）：程序和连接一起冻结，心跳也停了"},
			Argued: either(report.Broke, report.Unbroken)},
		// A's process dies as it enters: its connection closes, it never
		// closes its session, the server expires it and deletes A's node;
		// B then takes the lock alone. Argued: unbroken.
		"crash": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultCrash, At: sim.MarkEnter}),
			Placement: sim.Text{En: "A's process dies as it enters (its session expires on the server)", Zh: "A 进入临界区时进程死掉（它的会话在服务器上过期）"},
			Argued:    report.Unbroken},
		// A's connection is held for 2s as it enters, its program goes
		// on: its session expires, B takes the lock and writes while A is
		// still inside (mutual-exclusion). A's write waits on the held
		// link and is asked again until it heals: a plain setData then
		// lands after B's (stale-write), a fenced one is refused. Argued:
		// broke (setData), unbroken at the resource (token).
		"partition": {ZooKeeper: pair(zookeeper.Fault{Kind: sim.FaultPartition, At: sim.MarkEnter, For: zkFreeze}),
			Placement: sim.Text{En: "A's link to ZooKeeper is cut for 2s as it enters; its program goes on, its write waits on the link",
				Zh: "A 进入临界区时它到 ZooKeeper 的链路断开 2 秒；程序继续，写入在链路上等待"},
			Argued: either(report.Broke, report.Unbroken)},
	}
	r.Cells = notApplicable("zookeeper", cells)
	return r
}
