package report

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// Symbol is a cell kind's mark: ✗, ✓, ~, ? or n/a.
func Symbol(kind string) string {
	switch kind {
	case Fails:
		return "✗"
	case Holds:
		return "✓"
	case NotFound:
		return "~"
	case Unsearched:
		return "?"
	}
	return "n/a"
}

// Text says what a cell found, in one line of each language: the
// verdict and how the counterexample was found (✗), the count of
// schedules and the bound (✓), the count and that it is not a proof (~),
// that its search was stopped before its end and says nothing (?), or why
// the fault does not apply (n/a).
func (c *Cell) Text(row *Row) sim.Text {
	switch c.Kind {
	case Fails:
		entries := len(c.Counterexample.Schedule) + extraFaults(c)
		story := sim.Text{}
		if c.Story != nil {
			story = *c.Story
		}
		return sim.Text{
			En: fmt.Sprintf("✗ %s: %s (found in schedule %d of the %s search, shrunk to %s; replays to %s)",
				c.Verdict, story.En, c.FoundAt, c.Strategy, plural(entries, "move or fault", "moves and faults"), strings.Join(c.Verdicts, ", ")),
			Zh: fmt.Sprintf("✗ %s：%s（在%s的第 %d 个调度中找到，精简为 %d 个移动和故障；重放得到 %s）",
				c.Verdict, story.Zh, strategyZh(c.Strategy), c.FoundAt, entries, strings.Join(c.Verdicts, ", ")),
		}
	case Holds:
		t := sim.Text{
			En: fmt.Sprintf("✓ no violation in any of %s within the bound (exhaustive)", plural(c.Schedules, "schedule", "schedules")),
			Zh: fmt.Sprintf("✓ 在界限内的全部 %d 个调度中都没有违规（穷举）", c.Schedules),
		}
		if row != nil && row.Bound != nil {
			t = sim.Text{
				En: fmt.Sprintf("✓ within %s: no violation in any of %s (exhaustive)", row.Bound.En, plural(c.Schedules, "schedule", "schedules")),
				Zh: fmt.Sprintf("✓ 在%s的界限内：全部 %d 个调度中都没有违规（穷举）", row.Bound.Zh, c.Schedules),
			}
		}
		return and(t, c.storageNote(row))
	case NotFound:
		t := sim.Text{
			En: fmt.Sprintf("~ none found in %s (%s search; not a proof)", plural(c.Schedules, "sampled schedule", "sampled schedules"), c.Strategy),
			Zh: fmt.Sprintf("~ 在抽样的 %d 个调度中没有发现（%s；不是证明）", c.Schedules, strategyZh(c.Strategy)),
		}
		if row != nil && row.Bound != nil {
			t.En = fmt.Sprintf("~ within %s: none found in %s (%s search; not a proof)", row.Bound.En, plural(c.Schedules, "sampled schedule", "sampled schedules"), c.Strategy)
			t.Zh = fmt.Sprintf("~ 在%s的界限内：抽样的 %d 个调度中没有发现（%s；不是证明）", row.Bound.Zh, c.Schedules, strategyZh(c.Strategy))
		}
		return and(t, c.storageNote(row))
	case Broke, Unbroken:
		return c.liveText(row)
	case Unsearched:
		why := sim.Text{}
		if c.Why != nil {
			why = *c.Why
		}
		if row != nil && row.Sample != nil {
			return sim.Text{En: "? not run: " + why.En, Zh: "? 没有运行：" + why.Zh}
		}
		return sim.Text{En: "? not searched to its end: " + why.En, Zh: "? 没有搜索完：" + why.Zh}
	}
	return sim.Text{En: "n/a: " + c.Why.En, Zh: "不适用：" + c.Why.Zh}
}

// storageNote says, for a lock judged at its storage, that two clients
// were inside at once and the storage refused the late write, and what
// the ✓ does not cover: a late write that reaches the storage before the
// new holder's first is accepted (docs/verdicts.md), which a fault of
// another size (a pause just past the lease) can stage.
func (c *Cell) storageNote(row *Row) sim.Text {
	if row == nil || !row.Storage || c.Example == nil {
		return sim.Text{}
	}
	return sim.Text{
		En: "at the storage: two clients were inside at once, and the storage refused the late write. This holds for this column's fault; a late write that reaches the storage before the new holder's first write is accepted (a pause just past the lease can stage it)",
		Zh: "由存储把关：两个客户端曾同时在临界区内，存储拒绝了迟到的写入。这只对本列的故障成立；若迟到的写入先于新持有者的第一次写入到达存储，它会被接受（停顿刚好超过租约即可造成）",
	}
}

// and joins a clause to a text with "; " (nothing when it is empty).
func and(t, u sim.Text) sim.Text {
	if u.En == "" {
		return t
	}
	return sim.Text{En: t.En + "; " + u.En, Zh: t.Zh + "；" + u.Zh}
}

// extraFaults counts the faults of a counterexample placed on marks (they
// live among its scripted faults, not in its schedule).
func extraFaults(c *Cell) int {
	n := 0
	for _, f := range c.Counterexample.Faults {
		if f.On != nil {
			n++
		}
	}
	return n
}

func strategyZh(s string) string {
	switch s {
	case "exhaustive":
		return "穷举搜索"
	case "random":
		return "随机搜索"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
