package compare

import "github.com/lockstep/lockstep/internal/sim"

// Pair is a comparison that comes ready: a lesson and what to compare it
// with (an algorithm, or a lesson with the same clients).
type Pair struct {
	Left  string   // a lesson id
	With  string   // an algorithm id or a lesson id
	Title sim.Text // what the pair shows
}

// Pairs are the canonical comparisons, one per fix the catalog teaches.
var Pairs = []Pair{
	{Left: "blind-del-slow-release", With: "lua-cad-slow-release", Title: sim.Text{
		En: "Blind DEL vs compare-and-delete", Zh: "直接 DEL 与比较后删除"}},
	{Left: "owner-check-expire-between", With: "lua-compare-delete", Title: sim.Text{
		En: "GET-then-DEL vs one Lua script", Zh: "先 GET 再 DEL 与一个 Lua 脚本"}},
	{Left: "lease-pause-stale-write", With: "fencing-token-rejects-stale", Title: sim.Text{
		En: "No fencing vs fencing tokens", Zh: "没有 fencing 与 fencing token"}},
	{Left: "failover-lost-lock", With: "failover-wait-replica", Title: sim.Text{
		En: "Failover without and with WAIT", Zh: "不用 WAIT 与使用 WAIT 的主从切换"}},
	{Left: "thread-id-two-instances", With: "thread-id-uuid-fix", Title: sim.Text{
		En: "Thread id vs uuid:thread as the owner", Zh: "线程 id 与 uuid:线程 id 作为持有者"}},
}

// Partner is the canonical comparison of a scenario: what to compare it
// with when it is the left of a pair, or the pair's left when it is the
// right of one.
func Partner(id string) (with string, ok bool) {
	for _, p := range Pairs {
		switch id {
		case p.Left:
			return p.With, true
		case p.With:
			return p.Left, true
		}
	}
	return "", false
}
