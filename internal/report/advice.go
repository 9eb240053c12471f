package report

import (
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// phrase names each column's fault inside a sentence.
var phrase = map[string]sim.Text{
	"contention":    {En: "contention", Zh: "竞争"},
	"lost-reply":    {En: "a lost reply", Zh: "丢失回复"},
	"pause":         {En: "a pause longer than the lease", Zh: "超过租约的停顿"},
	"pause-release": {En: "a pause before the release", Zh: "释放前的停顿"},
	"crash":         {En: "a crash while holding", Zh: "持锁时崩溃"},
	"clock-jump":    {En: "a clock jump on a node", Zh: "节点时钟跳变"},
	"restart":       {En: "a restart without persistence", Zh: "无持久化重启"},
	"failover":      {En: "a failover before replication", Zh: "复制前的主从切换"},
	"partition":     {En: "a partition", Zh: "网络分区"},
}

// Advice is the row's one sentence, read from its finished cells only:
// "never" when contention alone breaks the lock; otherwise the faults it
// survived (proven, or only sampled, which it says) as what it may be used
// against, and the faults that broke it as when never to use it. A cell
// the card's time limit stopped (Unsearched) gives no advice: the
// sentence names it as not searched, and a row without a finished cell
// gives none at all.
func Advice(row *Row) sim.Text {
	var fails, survives, open []string
	var failsZh, survivesZh, openZh []string
	for _, c := range row.Cells {
		p := phrase[c.Column]
		switch {
		case c.Column == "contention" && c.Kind == Fails:
			return sim.Text{
				En: "Never use it to keep two processes apart: contention alone breaks it (" + c.Verdict + ").",
				Zh: "不要用它让两个进程互斥：仅有竞争就会出错（" + c.Verdict + "）。",
			}
		case c.Kind == Unsearched:
			open, openZh = append(open, p.En), append(openZh, p.Zh)
		case c.Column == "contention":
		case c.Kind == Fails:
			fails, failsZh = append(fails, p.En), append(failsZh, p.Zh)
		case c.Kind == Holds:
			survives, survivesZh = append(survives, p.En), append(survivesZh, p.Zh)
		case c.Kind == NotFound:
			survives, survivesZh = append(survives, p.En+" (sampled, not proven)"), append(survivesZh, p.Zh+"（抽样，未证明）")
		}
	}
	var t sim.Text
	switch {
	case len(fails) == 0 && len(survives) == 0 && len(open) > 0:
		return sim.Text{
			En: "No advice: none of its cells was searched to its end (" + join(open, "and") + " not searched).",
			Zh: "没有建议：它没有一格搜索完（" + joinZh(openZh, "和") + "都没有搜索完）。",
		}
	case len(fails) == 0 && len(open) == 0:
		return sim.Text{
			En: "Use it when any of these faults can happen: no search broke it (" + proofNote(row) + ").",
			Zh: "这些故障都可能发生时可以用它：没有一次搜索打破它（" + proofNoteZh(row) + "）。",
		}
	case len(fails) == 0:
		t = sim.Text{
			En: "Use it when " + join(survives, "and") + isAre(survives) + " all you fear: no finished search broke it (" + proofNote(row) + ").",
			Zh: "如果你只担心" + joinZh(survivesZh, "和") + "，可以用它：没有一次搜索完的搜索打破它（" + proofNoteZh(row) + "）。",
		}
	case len(survives) == 0:
		t = sim.Text{
			En: "Use it only when none of these faults can happen; never when " + join(fails, "or") + " can.",
			Zh: "只有在这些故障都不会发生时才能用；只要可能出现" + joinZh(failsZh, "或") + "，就不要用。",
		}
	default:
		t = sim.Text{
			En: "Use it when " + join(survives, "and") + isAre(survives) + " all you fear; never when " + join(fails, "or") + " can happen.",
			Zh: "如果你只担心" + joinZh(survivesZh, "和") + "，可以用它；只要可能出现" + joinZh(failsZh, "或") + "，就不要用。",
		}
	}
	if len(open) > 0 {
		t.En += " Nothing is said of " + join(open, "or") + ": not searched to its end."
		t.Zh += "对" + joinZh(openZh, "或") + "什么也没说明：没有搜索完。"
	}
	return t
}

// isAre is the verb after a list: " is" after one item, " are" after more.
func isAre(list []string) string {
	if len(list) == 1 {
		return " is"
	}
	return " are"
}

// proofNote says how many of a row's cells are proven and how many only
// sampled.
func proofNote(row *Row) string {
	h, n, open := counts(row)
	switch {
	case n == 0 && open > 0:
		return "every cell searched to its end proven within its bound"
	case n == 0:
		return "every cell proven within its bound"
	case h == 0:
		return "sampled, not proven"
	}
	return itoa(h) + " proven within their bound, " + itoa(n) + " only sampled"
}

func proofNoteZh(row *Row) string {
	h, n, open := counts(row)
	switch {
	case n == 0 && open > 0:
		return "每一格搜索完的都在其界限内得到证明"
	case n == 0:
		return "每一格都在其界限内得到证明"
	case h == 0:
		return "只是抽样，不是证明"
	}
	return itoa(h) + " 格在界限内得到证明，" + itoa(n) + " 格只是抽样"
}

// counts are a row's cells proven (✓), sampled (~) and not searched to
// their end (?).
func counts(row *Row) (holds, sampled, open int) {
	for _, c := range row.Cells {
		switch c.Kind {
		case Holds:
			holds++
		case NotFound:
			sampled++
		case Unsearched:
			open++
		}
	}
	return holds, sampled, open
}

// join lists phrases in English: "a, b and c".
func join(list []string, and string) string {
	if len(list) == 1 {
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " " + and + " " + list[len(list)-1]
}

// joinZh lists phrases in Chinese: "a、b和c".
func joinZh(list []string, and string) string {
	if len(list) == 1 {
		return list[0]
	}
	return strings.Join(list[:len(list)-1], "、") + and + list[len(list)-1]
}

func itoa(n int) string { return strconv.Itoa(n) }
