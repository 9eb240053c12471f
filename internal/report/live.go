package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// The kinds of a live row's cell: a sample of real-time runs on a live
// server (etcd, ZooKeeper), which the engine does not control and cannot
// search. Neither is a search's verdict: ✗ k/N says k of N real runs
// broke the lock, ✓ 0/N that none of N did (not a proof).
const (
	Broke    = "broke"    // ✗ k/N ◷: k of the N real-time runs broke the lock
	Unbroken = "unbroken" // ✓ 0/N ◷: no break in N real-time runs
)

// Clock is the mark of a cell decided by real-time runs, not a search.
const Clock = "◷"

// Sample says where and when a live row's runs ran: a live row cannot be
// recomputed identically (its server keeps time by its own clock), so it
// is stored with its tally and this, and checked by verdict class.
type Sample struct {
	Runs    int    `json:"runs"`    // real-time runs per cell
	Date    string `json:"date"`    // the day they ran, 2026-11-29
	Machine string `json:"machine"` // the machine: its platform, CPUs and Go
	Server  string `json:"server"`  // the server they ran on
	Took    string `json:"took"`    // the row's wall-clock time
}

// Tally is how many runs of a live cell ended with these verdicts.
type Tally struct {
	Verdicts []string `json:"verdicts"`
	Runs     int      `json:"runs"`
}

// Mark is a cell's mark on the grid: for a live cell the tally and the
// real-time sign ("✗ 5/5 ◷", "✓ 0/5 ◷"), else its kind's Symbol.
func (c *Cell) Mark() string {
	switch c.Kind {
	case Broke:
		return fmt.Sprintf("✗ %d/%d %s", c.Broken, c.Runs, Clock)
	case Unbroken:
		return fmt.Sprintf("✓ 0/%d %s", c.Runs, Clock)
	}
	return Symbol(c.Kind)
}

// Name is how the card names a row: its lock's id, and for a live row
// the write it makes ("etcd-mutex (Put)").
func (r *Row) Name() string {
	if r.Variant == "" {
		return r.Algorithm
	}
	return r.Algorithm + " (" + r.Variant + ")"
}

// anchor is the row's heading's anchor in docs/choosing-a-lock.md.
func (r *Row) anchor() string {
	s := strings.ToLower(r.Name())
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-':
			b.WriteRune(c)
		case c == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// liveText says what a live cell's runs found, in both languages; for a
// row judged at its storage, that two inside at once is not a break.
func (c *Cell) liveText(row *Row) sim.Text {
	at := sim.Text{}
	if c.Placement != nil {
		at = *c.Placement
	}
	tally := make([]string, len(c.Tally))
	for i, t := range c.Tally {
		tally[i] = fmt.Sprintf("%s ×%d", strings.Join(t.Verdicts, ", "), t.Runs)
	}
	if c.Kind == Broke {
		return sim.Text{
			En: fmt.Sprintf("%s ✗ %d of %d real-time runs on a live server broke the lock (%s), a sample, not a search: %s (runs ended: %s)",
				Clock, c.Broken, c.Runs, c.Verdict, at.En, strings.Join(tally, "; ")),
			Zh: fmt.Sprintf("%s ✗ 真实服务器上 %d 次真实时间运行中有 %d 次打破了锁（%s），是抽样而不是搜索：%s（各次运行的结果：%s）",
				Clock, c.Runs, c.Broken, c.Verdict, at.Zh, strings.Join(tally, "；")),
		}
	}
	t := sim.Text{
		En: fmt.Sprintf("%s ✓ no break in %d real-time runs on a live server, a sample, not a search and not a proof: %s (runs ended: %s)",
			Clock, c.Runs, at.En, strings.Join(tally, "; ")),
		Zh: fmt.Sprintf("%s ✓ 真实服务器上 %d 次真实时间运行都没有被打破，是抽样，不是搜索，也不是证明：%s（各次运行的结果：%s）",
			Clock, c.Runs, at.Zh, strings.Join(tally, "；")),
	}
	twoInside := false
	for _, x := range c.Tally {
		twoInside = twoInside || slices.Contains(x.Verdicts, sim.VerdictMutualExclusion)
	}
	if row != nil && row.Storage && twoInside {
		t = and(t, sim.Text{
			En: "judged at the resource: two clients were inside at once, and the checked write refused the stale holder",
			Zh: "在资源处评判：两个客户端曾同时在临界区内，带检查的写入拒绝了过期的持有者"})
	}
	return t
}

// LiveLegend says what a live row's marks mean.
func LiveLegend() sim.Text {
	return sim.Text{
		En: Clock + " a sample of real-time runs on a live server (etcd, ZooKeeper), not a search: the engine does not control its clock. " +
			"✗ k/N " + Clock + " k of N real runs of the cell's one fault placement broke the lock   ✓ 0/N " + Clock + " no break in N real runs (not a proof)   " +
			"? not run (the server cannot run here: what to install is said)   n/a the fault cannot apply",
		Zh: Clock + " 真实服务器（etcd、ZooKeeper）上真实时间运行的抽样，不是搜索：引擎控制不了它的时钟。" +
			"✗ k/N " + Clock + " 这一格的故障放在固定位置，N 次真实运行中有 k 次打破了锁   ✓ 0/N " + Clock + " N 次真实运行都没有打破（不是证明）   " +
			"? 没有运行（服务器在这里跑不起来：会说明要安装什么）   n/a 这种故障不适用",
	}
}

// checkLive holds a stored card's live rows to the shape a live row has:
// the code's columns, every cell decided by runs, not applicable with a
// reason, or not run with one.
func checkLive(rows []*Row) error {
	for _, r := range rows {
		if r.Sample == nil || r.Sample.Runs <= 0 || r.Sample.Date == "" || r.Sample.Machine == "" {
			return fmt.Errorf("report: the stored card's live row %s says not where and when it ran", r.Name())
		}
		if len(r.Cells) != len(Columns) {
			return fmt.Errorf("report: the stored card's live row %s has %d cells, the code %d columns", r.Name(), len(r.Cells), len(Columns))
		}
		for j, c := range r.Cells {
			if err := checkLiveCell(r, c, Columns[j].ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkLiveCell holds one live cell to its kind's shape.
func checkLiveCell(r *Row, c *Cell, column string) error {
	bad := func(why string) error {
		return fmt.Errorf("report: the stored card's live cell %s/%s %s", r.Name(), column, why)
	}
	if c == nil || c.Column != column {
		return bad("is not the code's column")
	}
	switch c.Kind {
	case Broke, Unbroken:
		n := 0
		for _, t := range c.Tally {
			n += t.Runs
		}
		if c.Runs <= 0 || n != c.Runs || c.Placement == nil {
			return bad("has no tally of its runs")
		}
		if c.Kind == Broke && (c.Broken <= 0 || c.Broken > c.Runs || c.Verdict == "") || c.Kind == Unbroken && c.Broken != 0 {
			return bad("has a tally its kind does not say")
		}
	case NA, Unsearched:
		if c.Why == nil {
			return bad("says not why it has no runs")
		}
	default:
		return bad("is of kind " + c.Kind + ", which no real-time run decides")
	}
	return nil
}

// LiveRow finds the live rows of a lock.
func (card *Card) LiveRows(algorithm string) []*Row {
	var out []*Row
	for _, r := range card.Live {
		if r.Algorithm == algorithm {
			out = append(out, r)
		}
	}
	return out
}

// liveMarkdown is docs/choosing-a-lock.md's section on the live rows:
// how they are computed and kept, their grid, and each row's cells.
func (card *Card) liveMarkdown(b *strings.Builder) {
	if len(card.Live) == 0 {
		return
	}
	b.WriteString("## Live servers, real time · 真实服务器，真实时间\n\n")
	b.WriteString(liveHow)
	b.WriteString("| lock · 锁 |")
	for _, c := range card.Columns {
		fmt.Fprintf(b, " %s<br>%s |", c.Title.En, c.Title.Zh)
	}
	b.WriteString("\n|---|")
	for range card.Columns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range card.Live {
		fmt.Fprintf(b, "| [`%s`](#%s) |", r.Name(), r.anchor())
		for _, c := range r.Cells {
			mark := c.Mark()
			if c.Kind == Broke {
				mark += " " + strings.Join(c.Verdicts, ", ")
			}
			fmt.Fprintf(b, " %s |", mark)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + LiveLegend().En + "\n\n" + LiveLegend().Zh + "\n")
	for _, r := range card.Live {
		fmt.Fprintf(b, "\n### %s\n\n%s\n\n", r.Name(), mdEscape(r.Title))
		fmt.Fprintf(b, "- **%s**\n  %s\n", mdEscape(r.Advice.En), mdEscape(r.Advice.Zh))
		fmt.Fprintf(b, "- needs: %s · 需要：%s\n", mdEscape(r.needsText("en")), mdEscape(r.needsText("zh")))
		s := r.Sample
		fmt.Fprintf(b, "- %d real-time runs a cell on %s, %s, %s; the row took %s · 每格 %d 次真实时间运行，%s，%s，%s；整行用时 %s\n\n",
			s.Runs, s.Server, s.Date, s.Machine, s.Took, s.Runs, s.Server, s.Date, s.Machine, s.Took)
		b.WriteString("| fault · 故障 | what the runs did | 运行结果 |\n|---|---|---|\n")
		for i, c := range r.Cells {
			t := c.Text(r)
			fmt.Fprintf(b, "| %s · %s | %s | %s |\n", card.Columns[i].Title.En, card.Columns[i].Title.Zh, mdEscape(t.En), mdEscape(t.Zh))
		}
	}
	b.WriteString("\n")
}

// liveHow says how the live rows are computed and kept.
const liveHow = `etcd's lock and ZooKeeper's run on their real servers in real time (docs/services.md): the
server expires a lease or a session by its own clock, the clients keep them alive from goroutines of
their own, and the engine controls neither, so these rows cannot be searched. Each cell is a **sample
of real-time runs**: the column's fault at one fixed placement (the holder frozen as it enters,
its connection cut, its process dead, one reply lost), run N times on a live server, with the
tally of how the runs ended. ✗ k/N ◷ says k of N real runs broke the lock; ✓ 0/N ◷ says no break
in N real runs, never "none found by search". A fault a service cannot take is n/a, with why. The
rows are computed by ` + "`visualizer report --only etcd-mutex,zookeeper-lock`" + ` (or
` + "`scripts/live-card.sh RUNS`" + `, which writes them here), and kept with the date, the machine and the
server they ran on; they are not computed again by ` + "`TestChoosingALockDoc`" + `, which carries them
over. ` + "`TestLiveRows`" + ` (internal/livecard) holds them to the code by shape and verdict class: every cell
of the code's columns, n/a exactly where the code says, and five fresh runs of each cell, all at
once, end in the stored cell's class (broke or not) in at least four (about 40 s in all).

etcd 的锁和 ZooKeeper 的锁在真实服务器上以真实时间运行：服务器按自己的时钟让租约或会话过期，客户端用
自己的 goroutine 续约，引擎都控制不了，所以这几行无法搜索。每一格是**真实时间运行的抽样**：本列的故障放在
一个固定位置（持有者进入时冻结、连接被切断、进程死掉、丢失一个回复），在真实服务器上运行 N 次，并统计各次
运行的结果。✗ k/N ◷ 表示 N 次真实运行中有 k 次打破了锁；✓ 0/N ◷ 表示 N 次真实运行都没有打破，绝不是
“搜索没有发现”。服务做不到的故障记为 n/a，并说明原因。这几行由
` + "`visualizer report --only etcd-mutex,zookeeper-lock`" + ` 计算（或由 ` + "`scripts/live-card.sh RUNS`" + ` 写到这里），
连同运行的日期、机器和服务器一起保存；` + "`TestChoosingALockDoc`" + ` 不重新计算它们，只把它们带过去。
` + "`TestLiveRows`" + `（internal/livecard）按形状和结论类别把它们和代码对齐：代码的每一列都有一格，n/a 恰在代码说的位置，
每一格同时新跑五次，至少四次的结果与保存的类别（打破或没有打破）相同（总共约 40 秒）。

`

// liveNames are the live locks as the card names them.
var liveNames = map[string]sim.Text{
	"etcd-mutex":     {En: "etcd's concurrency.Mutex", Zh: "etcd 的 concurrency.Mutex"},
	"zookeeper-lock": {En: "ZooKeeper's lock recipe", Zh: "ZooKeeper 的锁配方"},
}

// IsLive reports whether a lock's row is decided by real-time runs.
func IsLive(algorithm string) bool { _, ok := liveNames[algorithm]; return ok }

// LiveIDs are the locks whose rows are real-time runs.
func LiveIDs() []string {
	var out []string
	for id := range liveNames {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// liveText is the live rows as the command line prints them, in lang:
// their grid, their legend, then each row's cells in words.
func (card *Card) liveText(b *strings.Builder, lang string) {
	if len(card.Live) == 0 {
		return
	}
	b.WriteString("\n" + Pick(sim.Text{En: "Live servers, real time: each cell a sample of real runs, not a search.",
		Zh: "真实服务器，真实时间：每一格是真实运行的抽样，不是搜索。"}, lang) + "\n\n")
	width := 0
	for _, r := range card.Live {
		width = max(width, len([]rune(r.Name())))
	}
	fmt.Fprintf(b, "%-*s", width+2, "")
	for _, c := range card.Columns {
		fmt.Fprintf(b, "%-12s", c.ID)
	}
	b.WriteString("\n")
	for _, r := range card.Live {
		b.WriteString(pad(r.Name(), width+2))
		for _, c := range r.Cells {
			b.WriteString(pad(c.Mark(), 12))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + Pick(LiveLegend(), lang) + "\n")
	for _, r := range card.Live {
		s := r.Sample
		fmt.Fprintf(b, "\n%s: %s\n", r.Name(), r.Title)
		if lang == "zh" {
			fmt.Fprintf(b, "  每格 %d 次真实时间运行，%s，%s，%s；整行用时 %s；需要：%s\n", s.Runs, s.Server, s.Date, s.Machine, s.Took, r.needsText(lang))
		} else {
			fmt.Fprintf(b, "  %d real-time runs a cell on %s, %s, %s; the row took %s; needs: %s\n", s.Runs, s.Server, s.Date, s.Machine, s.Took, r.needsText(lang))
		}
		for i, c := range r.Cells {
			fmt.Fprintf(b, "  %s: %s\n", Pick(card.Columns[i].Title, lang), Pick(c.Text(r), lang))
		}
		fmt.Fprintf(b, "  %s\n", Pick(r.Advice, lang))
	}
}

// LiveText is the live rows alone as the command line prints them (a
// card of live locks only: visualizer report --only etcd-mutex).
func (card *Card) LiveText(lang string) string {
	var b strings.Builder
	card.liveText(&b, lang)
	return strings.TrimPrefix(b.String(), "\n")
}

// LiveMarkdown is the live rows alone as docs/choosing-a-lock.md writes
// them.
func (card *Card) LiveMarkdown() string {
	var b strings.Builder
	card.liveMarkdown(&b)
	return b.String()
}
