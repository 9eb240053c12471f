package report

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

// names are the locks as the card names them to a reader: a few words in
// each language, where lock.Info.Title says how the lock works in a
// sentence of English and the id is what a scenario file writes.
var names = map[string]sim.Text{
	"no-lock":                {En: "No lock", Zh: "不加锁"},
	"local-mutex":            {En: "In-process mutex", Zh: "进程内互斥锁"},
	"watch-multi-exec":       {En: "WATCH/MULTI/EXEC, retried", Zh: "WATCH/MULTI/EXEC 乐观重试"},
	"setnx-no-expiry":        {En: "SETNX, no expiry", Zh: "SETNX，不设过期"},
	"setnx-then-expire":      {En: "SETNX, then EXPIRE", Zh: "先 SETNX 再 EXPIRE"},
	"setnx-getset-timestamp": {En: "SETNX + GETSET timestamp", Zh: "SETNX + GETSET 时间戳"},
	"set-nx-ex-blind-del":    {En: "SET NX, blind DEL", Zh: "SET NX，直接 DEL 释放"},
	"owner-check-get-del":    {En: "SET NX, GET check then DEL", Zh: "SET NX，先 GET 核对再 DEL"},
	"lua-compare-delete":     {En: "SET NX, Lua compare-and-delete", Zh: "SET NX，Lua 比较后删除"},
	"watch-release":          {En: "SET NX, WATCH-guarded release", Zh: "SET NX，WATCH 保护的释放"},
	"reentrant-hash":         {En: "Re-entrant hash (Lua)", Zh: "可重入哈希锁（Lua）"},
	"reentrant-thread-id":    {En: "Re-entrant by bare thread id", Zh: "只按线程号的可重入锁"},
	"watchdog":               {En: "Re-entrant with a watchdog", Zh: "带看门狗的可重入锁"},
	"replica-failover":       {En: "A master with a replica", Zh: "带异步副本的主节点"},
	"redlock":                {En: "Redlock, a majority of masters", Zh: "Redlock，多数主节点"},
	"fencing-token":          {En: "Lease with fencing tokens", Zh: "带栅栏令牌的租约锁"},
	"mysql-unique-key":       {En: "MySQL unique-key row", Zh: "MySQL 唯一键行锁"},
	"redsync":                {En: "redsync library (Redlock)", Zh: "redsync 库（Redlock）"},
	"redislock":              {En: "redislock library", Zh: "redislock 库"},
}

// Name is a lock's name in words, in both languages; a lock the card has
// no name for is named by its id.
func Name(algorithm string) sim.Text {
	if n, ok := names[algorithm]; ok {
		return n
	}
	if n, ok := liveNames[algorithm]; ok {
		return n
	}
	return sim.Text{En: algorithm, Zh: algorithm}
}

// Within says the bound a row's ✓ holds within, read from the scenario
// its cells run (Template): how many clients, how many requests each, and
// the lease, when the lock is given one. Short is the card's mark beside
// a ✓ ("2×1 · 1s"), Long the same in words.
func (r *Row) Within() (short, long sim.Text) {
	a, ok := lock.Lookup(r.Algorithm)
	if !ok || r.Probe == nil {
		return sim.Text{}, sim.Text{}
	}
	sc := Template(a, &Columns[0], r.Probe)
	clients, requests := len(sc.Clients), 1
	leased := false
	for _, c := range sc.Clients {
		requests = max(requests, c.Requests)
		for _, v := range c.Params {
			leased = leased || v == Lease.String()
		}
	}
	short = sim.Text{En: fmt.Sprintf("%d×%d", clients, requests), Zh: fmt.Sprintf("%d×%d", clients, requests)}
	long = sim.Text{
		En: fmt.Sprintf("within %s making %s each", plural(clients, "client", "clients"), plural(requests, "request", "requests")),
		Zh: fmt.Sprintf("在 %d 个客户端、每个 %d 次请求之内", clients, requests),
	}
	if leased {
		short.En += " · " + Lease.String()
		short.Zh += fmt.Sprintf(" · %g秒", Lease.Seconds())
		long.En += ", lease " + Lease.String()
		long.Zh += fmt.Sprintf("，租约 %g 秒", Lease.Seconds())
	}
	return short, long
}
