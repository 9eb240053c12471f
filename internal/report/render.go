package report

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Bound is what every cell's search is bounded by, beside its column's
// fault.
func Bound() sim.Text {
	return sim.Text{
		En: fmt.Sprintf("Two clients A and B run the lock and start together, each once: take the lock (lease %v, retry every %v), "+
			"work %v inside, release (a lock with fencing tokens then writes to a storage that checks them; code without a lock deducts from a stock instead); "+
			"a reply not back within %v times out; the search orders every two moves due at the same instant both ways; "+
			"at most one fault of the column; %v of virtual time and %d engine steps a schedule",
			Lease, Retry, Work, Timeout, Horizon, ScheduleSteps),
		Zh: fmt.Sprintf("两个客户端 A 和 B 运行这把锁、同时开始、各做一次：加锁（租约 %v，每 %v 重试一次），在临界区内工作 %v"+
			"，然后释放（带栅栏令牌的锁在工作后写入会检查令牌的存储；没有锁的代码则对库存做扣减）；回复 %v 内没回来就超时；"+
			"同一时刻到期的两个移动，搜索两种先后顺序都试；每列至多一个故障；每个调度 %v 虚拟时间、至多 %d 个引擎步",
			Lease, Retry, Work, Timeout, Horizon, ScheduleSteps),
	}
}

// Trips gives a row's round trips per acquire and release: "1 / 1",
// "1 (3 commands) / 1 (3 commands)", or "—" for no lock.
func (r *Row) Trips(lang string) string {
	p := r.Probe
	if !p.Locks || !p.Network {
		return "—"
	}
	one := func(trips, cmds int) string {
		if cmds == trips {
			return fmt.Sprint(trips)
		}
		if lang == "zh" {
			return fmt.Sprintf("%d（%d 条命令）", trips, cmds)
		}
		return fmt.Sprintf("%d (%d commands)", trips, cmds)
	}
	return one(p.Acquire, p.AcquireCommands) + " / " + one(p.Release, p.ReleaseCommands)
}

// Pick gives a text in lang (zh, or else English).
func Pick(t sim.Text, lang string) string {
	if lang == "zh" {
		return t.Zh
	}
	return t.En
}

// needsText lists a row's needs in one language.
func (r *Row) needsText(lang string) string {
	parts := make([]string, len(r.Needs))
	for i, n := range r.Needs {
		parts[i] = Pick(n, lang)
	}
	sep := "; "
	if lang == "zh" {
		sep = "；"
	}
	return strings.Join(parts, sep)
}

// Text is the card as the command line prints it, in lang (en or zh):
// the grid of marks, the legend, then each lock with its cells in words.
func (card *Card) Text(lang string) string {
	var b strings.Builder
	zh := lang == "zh"
	if zh {
		b.WriteString("选哪把锁？每一把锁对每一种故障，每格由调度搜索决定（visualizer report）。\n\n")
	} else {
		b.WriteString("Which lock? Every lock against every fault, each cell decided by a schedule search (visualizer report).\n\n")
	}
	width := 0
	for _, r := range card.Rows {
		width = max(width, len(r.Algorithm))
	}
	fmt.Fprintf(&b, "%-*s", width+2, "")
	for _, c := range card.Columns {
		fmt.Fprintf(&b, "%-12s", c.ID)
	}
	b.WriteString("\n")
	for _, r := range card.Rows {
		fmt.Fprintf(&b, "%-*s", width+2, r.Algorithm)
		for _, c := range r.Cells {
			b.WriteString(pad(Symbol(c.Kind), 12))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + Pick(Legend(), lang) + "\n")
	if card.Unsearched != nil {
		b.WriteString("\n" + Pick(*card.Unsearched, lang) + ".\n")
	}
	b.WriteString("\n" + Pick(sim.Text{En: "Every cell: ", Zh: "每一格："}, lang) + Pick(Bound(), lang) + ".\n")
	for _, c := range card.Columns {
		fmt.Fprintf(&b, "  %s: %s\n", Pick(c.Title, lang), Pick(c.What, lang))
	}
	for _, r := range card.Rows {
		row := Pick(sim.Text{En: fmt.Sprintf("catalog row %d", r.Catalog), Zh: fmt.Sprintf("目录第 %d 行", r.Catalog)}, lang)
		fmt.Fprintf(&b, "\n%s (%s): %s\n", r.Algorithm, row, r.Title)
		if zh {
			fmt.Fprintf(&b, "  往返（加锁 / 释放）：%s；需要：%s\n", r.Trips(lang), r.needsText(lang))
		} else {
			fmt.Fprintf(&b, "  round trips (acquire / release): %s; needs: %s\n", r.Trips(lang), r.needsText(lang))
		}
		for i, c := range r.Cells {
			fmt.Fprintf(&b, "  %s: %s\n", Pick(card.Columns[i].Title, lang), Pick(c.Text(r), lang))
		}
		fmt.Fprintf(&b, "  %s\n", Pick(r.Advice, lang))
	}
	card.liveText(&b, lang)
	return b.String()
}

// Legend says what each mark means.
func Legend() sim.Text {
	return sim.Text{
		En: "✗ a schedule breaks it (its shrunk counterexample replays: visualizer report --cell LOCK/COLUMN)   " +
			"✓ no schedule within the bound breaks it (the search covered them all)   " +
			"~ none found in the schedules sampled (not a proof)   ? not searched to its end: the card's time limit stopped it, it says nothing   n/a the fault cannot apply",
		Zh: "✗ 有调度能打破它（精简后的反例可重放：visualizer report --cell 锁/列）   " +
			"✓ 界限内没有任何调度能打破它（搜索覆盖了全部调度）   " +
			"~ 在抽样的调度中没有发现（不是证明）   ? 没有搜索完：报告卡的时限让它提前停止，它什么也没说明   n/a 这种故障不适用",
	}
}

// pad pads s to n columns (the marks are one column wide).
func pad(s string, n int) string {
	w := len([]rune(s))
	if w >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-w)
}

// Counterexamples are every ✗ cell's shrunk schedule, and every example
// of a storage refusing a late write, as one scenario file: each replays
// to the verdicts it expects (visualizer test --file).
func (card *Card) Counterexamples() *scenario.File {
	f := &scenario.File{}
	for _, r := range card.Rows {
		for _, c := range r.Cells {
			if c.Counterexample != nil {
				f.Scenarios = append(f.Scenarios, *c.Counterexample)
			}
			if c.Example != nil {
				f.Scenarios = append(f.Scenarios, *c.Example)
			}
		}
	}
	return f
}

// Find gives the cell of a lock and a column.
func (card *Card) Find(algorithm, column string) (*Row, *Cell) {
	for _, r := range card.Rows {
		if r.Algorithm != algorithm {
			continue
		}
		for _, c := range r.Cells {
			if c.Column == column {
				return r, c
			}
		}
	}
	return nil, nil
}

// NeedsText lists what the row needs, in both languages.
func (r *Row) NeedsText() sim.Text { return sim.Text{En: r.needsText("en"), Zh: r.needsText("zh")} }
