package compare

import (
	"slices"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/sim"
)

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

// Family is a group of algorithms the picker shows together: the catalog's
// rows from First to Last.
type Family struct {
	Title       sim.Text
	First, Last int
}

// Families group the catalog's rows for the picker, in catalog order.
var Families = []Family{
	{sim.Text{En: "No lock, or a local one", Zh: "不加锁或本地锁"}, 1, 3},
	{sim.Text{En: "SETNX and its expiry", Zh: "SETNX 及其过期"}, 4, 7},
	{sim.Text{En: "Releasing only your own lock", Zh: "只释放自己的锁"}, 8, 10},
	{sim.Text{En: "Re-entrant and renewed", Zh: "可重入与续期"}, 11, 13},
	{sim.Text{En: "Several nodes", Zh: "多个节点"}, 14, 15},
	{sim.Text{En: "Fencing and SQL", Zh: "Fencing 与 SQL"}, 16, 17},
	{sim.Text{En: "Libraries, run as they are", Zh: "现成的库（按原样运行）"}, 18, 19},
}

// Group is a family's algorithms, by id, as the picker lists them.
type Group struct {
	Title sim.Text `json:"title"`
	IDs   []string `json:"ids"`
}

// Groups puts every registered algorithm in its family, in catalog order;
// an algorithm outside the catalog's rows (a library's) goes to a last
// group.
func Groups() []Group {
	out := make([]Group, len(Families))
	more := Group{Title: sim.Text{En: "More algorithms", Zh: "更多算法"}}
	for _, a := range lock.Algorithms {
		i := slices.IndexFunc(Families, func(f Family) bool { return a.Row >= f.First && a.Row <= f.Last })
		if i < 0 {
			more.IDs = append(more.IDs, a.ID)
			continue
		}
		out[i].Title, out[i].IDs = Families[i].Title, append(out[i].IDs, a.ID)
	}
	out = slices.DeleteFunc(out, func(g Group) bool { return len(g.IDs) == 0 })
	if len(more.IDs) > 0 {
		out = append(out, more)
	}
	return out
}
