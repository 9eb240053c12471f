package explore

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Bound says, in English and 中文, what a search of sc with opt covers:
// the fault budget and the sizes it tries, where client faults may land,
// which moves it reorders, and each schedule's virtual time and engine
// steps. A "no violation within the bound" means within this, and
// nothing more; with no budget it says that only the order of tied moves
// was searched.
func Bound(sc *scenario.Scenario, opt Options) (sim.Text, error) {
	e := opt.Budget
	if e == nil {
		e = sc.Explore
	}
	b, err := resolve(sc, e)
	if err != nil {
		return sim.Text{}, err
	}
	var en, zh []string
	if len(b.budget) == 0 {
		en = append(en, "no fault (the budget is empty): only the order of the clients' moves is searched")
		zh = append(zh, "没有故障（预算为空）：只搜索客户端行动的先后顺序")
	}
	for _, bu := range b.budget {
		sizes := ""
		if bu.Max > 0 {
			ls := levels(bu.Max.D(), opt.Exact)
			parts := make([]string, len(ls))
			for i, l := range ls {
				parts[i] = sim.FormatTime(l)
			}
			sizes = strings.Join(parts, ", ")
		}
		n := bu.Count
		kind, _ := sim.ActionOf(bu.Do)
		switch {
		case sizes != "":
			en = append(en, fmt.Sprintf("%d × %s of %s", n, bu.Do, sizes))
			zh = append(zh, fmt.Sprintf("%d 个 %s（%s）", n, bu.Do, sizes))
		case kind.Search == sim.SearchSized && !kind.Required: // without a max, it lasts
			en = append(en, fmt.Sprintf("%d × %s for good", n, bu.Do))
			zh = append(zh, fmt.Sprintf("%d 个永久的 %s", n, bu.Do))
		default:
			en = append(en, fmt.Sprintf("%d × %s", n, bu.Do))
			zh = append(zh, fmt.Sprintf("%d 个 %s", n, bu.Do))
		}
	}
	if len(opt.Marks) > 0 && len(b.budget) > 0 {
		m := strings.Join(opt.Marks, ", ")
		en = append(en, "client faults only at the marks "+m)
		zh = append(zh, "客户端故障只放在标记 "+m+" 处")
	}
	if b.window > 0 {
		en = append(en, "moves due within "+sim.FormatTime(b.window)+" of each other reordered")
		zh = append(zh, "相差 "+sim.FormatTime(b.window)+" 以内到期的移动可以调换顺序")
	} else {
		en = append(en, "only moves due at the same instant reordered")
		zh = append(zh, "只调换同一时刻到期的移动")
	}
	en = append(en, fmt.Sprintf("%s and at most %d engine steps a schedule", sim.FormatTime(b.horizon), b.steps))
	zh = append(zh, fmt.Sprintf("每个调度 %s、至多 %d 个引擎步", sim.FormatTime(b.horizon), b.steps))
	return sim.Text{En: strings.Join(en, "; "), Zh: strings.Join(zh, "；")}, nil
}
