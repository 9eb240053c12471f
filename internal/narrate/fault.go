package narrate

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// faultText says what a fault did.
func faultText(e *sim.Event) (string, string) {
	target := e.Client
	if target == "" {
		target = e.Node
	} else if e.Node != "" {
		target += " / " + e.Node
	}
	if strings.HasPrefix(e.Note, "not applied") {
		return fmt.Sprintf("The %s of %s is not applied (%s).", e.Name, target, e.Note),
			fmt.Sprintf("对 %s 的 %s 没有生效（%s）。", target, e.Name, e.Note)
	}
	switch sim.FaultKind(e.Name) {
	case sim.FaultPause:
		d := after(e.Note, " for ")
		return fmt.Sprintf("%s stops for %s (a pause: GC, a frozen VM).", e.Client, d), fmt.Sprintf("%s 停住了 %s（暂停：GC、虚拟机冻结）。", e.Client, d)
	case sim.FaultPartition:
		return fmt.Sprintf("%s is cut off from %s.", e.Node, or(e.Client, "every client")), fmt.Sprintf("%s 与 %s 之间的网络断开了。", e.Node, or(e.Client, "所有客户端"))
	case sim.FaultCrash:
		return e.Client + " crashes.", e.Client + " 崩溃了。"
	case sim.FaultRestart:
		return e.Client + " starts again.", e.Client + " 重新启动。"
	case sim.FaultNodeCrash:
		return e.Node + " goes down.", e.Node + " 宕机了。"
	case sim.FaultNodeRestart:
		if strings.Contains(e.Note, "empty") {
			return e.Node + " comes back empty: every key it held is gone.", e.Node + " 恢复了，但是空的：它原来的键全都没了。"
		}
		return e.Node + " comes back.", e.Node + " 恢复了。"
	case sim.FaultFailover:
		return fmt.Sprintf("Failover: %s (%s).", e.Node, e.Note), fmt.Sprintf("主从切换：%s（%s）。", e.Node, e.Note)
	case sim.FaultClockJump:
		d := after(e.Note, " by ")
		return fmt.Sprintf("%s's clock jumps by %s.", e.Node, d), fmt.Sprintf("%s 的时钟跳变了 %s。", e.Node, d)
	case "resume":
		return e.Client + " runs again.", e.Client + " 恢复运行。"
	}
	if e.Note != "" {
		return fmt.Sprintf("Fault %s on %s: %s.", e.Name, target, e.Note), fmt.Sprintf("故障 %s（%s）：%s。", e.Name, target, e.Note)
	}
	return fmt.Sprintf("Fault %s on %s.", e.Name, target), fmt.Sprintf("故障 %s（%s）。", e.Name, target)
}

// after is the text of note after sep ("A stops the world for 1s", " for "
// gives 1s), or the whole note when sep is not in it.
func after(note, sep string) string {
	if i := strings.LastIndex(note, sep); i >= 0 {
		return note[i+len(sep):]
	}
	return note
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
