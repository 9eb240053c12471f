package narrate

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// faultText says what a fault did, from the fact the engine logged with it.
func faultText(e *sim.Event) (string, string) {
	target := e.Client
	if target == "" {
		target = e.Node
	} else if e.Node != "" {
		target += " / " + e.Node
	}
	f := e.Fact
	if f == nil {
		return fmt.Sprintf("Fault %s on %s.", e.Name, target), fmt.Sprintf("故障 %s（%s）。", e.Name, target)
	}
	s := sim.FormatTime
	switch f.Key {
	case fact.NotApplied:
		w := f.Reason.Render()
		if f.Reason != nil && f.Reason.Key == fact.BadFault {
			w = f.Reason.Reason.Render() // the refusal's reason, without "sim: bad fault"
		}
		return fmt.Sprintf("The %s of %s is not applied (%s).", e.Name, target, w.En),
			fmt.Sprintf("对 %s 的 %s 没有生效（%s）。", target, e.Name, w.Zh)
	case fact.Paused:
		return fmt.Sprintf("%s stops for %s (a pause: GC, a frozen VM).", f.Client, s(f.For)),
			fmt.Sprintf("%s 停住了 %s（暂停：GC、虚拟机冻结）。", f.Client, s(f.For))
	case fact.CutOff:
		if f.Client == "" {
			return f.Node + " is cut off from every client.", f.Node + " 与所有客户端之间的网络断开了。"
		}
		return fmt.Sprintf("%s is cut off from %s.", f.Node, f.Client), fmt.Sprintf("%s 与 %s 之间的网络断开了。", f.Node, f.Client)
	case fact.Crashed:
		if f.For > 0 {
			return fmt.Sprintf("%s crashes; it will start again in %s.", f.Client, s(f.For)), fmt.Sprintf("%s 崩溃了，%s 后重新启动。", f.Client, s(f.For))
		}
		return f.Client + " crashes.", f.Client + " 崩溃了。"
	case fact.StartsAgain:
		return f.Client + " starts again.", f.Client + " 重新启动。"
	case fact.Down:
		if f.For > 0 {
			return fmt.Sprintf("%s goes down for %s.", f.Node, s(f.For)), fmt.Sprintf("%s 宕机了，%s 后恢复。", f.Node, s(f.For))
		}
		return f.Node + " goes down.", f.Node + " 宕机了。"
	case fact.BackEmpty:
		return f.Node + " comes back empty: every key it held is gone.", f.Node + " 恢复了，但是空的：它原来的键全都没了。"
	case fact.BackWithData:
		return f.Node + " comes back with its keys.", f.Node + " 恢复了，键都还在。"
	case fact.ClockJumps:
		return fmt.Sprintf("%s's clock jumps by %s.", f.Node, s(f.By)), fmt.Sprintf("%s 的时钟跳变了 %s。", f.Node, s(f.By))
	case fact.RunsAgain:
		return f.Client + " runs again.", f.Client + " 恢复运行。"
	}
	w := f.Render()
	return fmt.Sprintf("%s on %s: %s.", e.Name, target, w.En), fmt.Sprintf("故障 %s（%s）：%s。", e.Name, target, w.Zh)
}
