package fact

import (
	"fmt"
	"strings"
)

// faultWords says what a fault does, and why the engine refuses one.
var faultWords = phrasebook{
	Crashed: func(f *Fact) Text {
		if f.For > 0 {
			return both(fmt.Sprintf("%s crashed, restarts in %s", f.Client, Seconds(f.For)), fmt.Sprintf("%s 崩溃了，%s 后重启", f.Client, Seconds(f.For)))
		}
		return both(f.Client+" crashed", f.Client+" 崩溃了")
	},
	StartsAgain: func(f *Fact) Text {
		return both(fmt.Sprintf("%s starts again (incarnation %d)", f.Client, f.Incarnation),
			fmt.Sprintf("%s 重新启动（第 %d 次运行）", f.Client, f.Incarnation))
	},
	Paused: func(f *Fact) Text {
		return both(fmt.Sprintf("%s stops the world for %s", f.Client, Seconds(f.For)), fmt.Sprintf("%s 停顿（stop-the-world）%s", f.Client, Seconds(f.For)))
	},
	RunsAgain: func(f *Fact) Text {
		return both(f.Client+" runs again", f.Client+" 恢复运行")
	},
	NextRequestLost: func(f *Fact) Text {
		return both("the next request of "+f.Client+" will be lost", f.Client+" 的下一个请求将会丢失")
	},
	NextReplyLost: func(f *Fact) Text {
		return both("the next reply of "+f.Client+" will be lost", f.Client+" 的下一个回复将会丢失")
	},
	CutOff: func(f *Fact) Text {
		if f.Client == "" {
			return both(f.Node+" is cut off from every client", f.Node+" 与所有客户端之间的网络断开")
		}
		return both(f.Node+" is cut off from "+f.Client, f.Node+" 与 "+f.Client+" 之间的网络断开")
	},
	Reachable: func(f *Fact) Text {
		return both(f.Node+" is reachable again", f.Node+" 又能连通了")
	},
	BackWithData: func(f *Fact) Text {
		return both(f.Node+" is back with its data", f.Node+" 恢复了，数据还在")
	},
	BackEmpty: func(f *Fact) Text {
		return both(f.Node+" is back, empty (no persistence)", f.Node+" 恢复了，但数据是空的（没有持久化）")
	},
	ClockJumps: func(f *Fact) Text {
		return both(fmt.Sprintf("%s's clock jumps by %s", f.Node, Seconds(f.By)), fmt.Sprintf("%s 的时钟跳了 %s", f.Node, Seconds(f.By)))
	},
	ClockAhead: func(f *Fact) Text {
		return both(fmt.Sprintf("%s's clock now runs %s ahead", f.Client, Seconds(f.By)), fmt.Sprintf("%s 的时钟现在快了 %s", f.Client, Seconds(f.By)))
	},
	FailedOver: (*Fact).failover,

	BadFault: func(f *Fact) Text {
		r := f.Reason.marked()
		return both("sim: bad fault: "+r.En, "故障不适用："+r.Zh)
	},
	UnknownKind: func(f *Fact) Text {
		return both(fmt.Sprintf("unknown kind %q", f.Item), fmt.Sprintf("未知的故障类型 %q", f.Item))
	},
	AlreadyCrashed: func(f *Fact) Text {
		return both(f.Client+" has already crashed", f.Client+" 已经崩溃了")
	},
	HasCrashed: func(f *Fact) Text {
		return both(f.Client+" has crashed", f.Client+" 已经崩溃了")
	},
	AlreadyPaused: func(f *Fact) Text {
		return both(fmt.Sprintf("%s is already paused until %s: a pause of %s would end sooner", f.Client, Seconds(f.Until), Seconds(f.For)),
			fmt.Sprintf("%s 已经停顿到 %s：再停顿 %s 会更早结束，什么也不会改变", f.Client, Seconds(f.Until), Seconds(f.For)))
	},
	IsRunning: func(f *Fact) Text {
		return both(f.Client+" is running", f.Client+" 正在运行，无需重启")
	},
	RestartsItself: func(f *Fact) Text {
		return both(f.Client+" cannot restart itself", f.Client+" 不能重启自己")
	},
	NeedsAmount: func(f *Fact) Text {
		return both(f.Item+" needs "+f.Value+": "+f.Text, f.Item+" 需要 "+f.Value+"："+hintZh[f.Item])
	},
	AlreadyDown: func(f *Fact) Text {
		return both(f.Node+" is already down", f.Node+" 已经宕机了")
	},
	NotDown: func(f *Fact) Text {
		return both(f.Node+" is not down", f.Node+" 没有宕机")
	},
	ClockCannotJump: func(f *Fact) Text {
		r := f.Reason.marked()
		return both(f.Node+"'s clock cannot jump: "+r.En, f.Node+" 的时钟不能跳变："+r.Zh)
	},
	NoReplica: func(f *Fact) Text {
		return both(f.Node+" has no replica to promote", f.Node+" 没有可以提升的副本")
	},
	ReplicaDown: func(f *Fact) Text {
		return both(f.Node+"'s replica "+f.Replica+" is down", f.Node+" 的副本 "+f.Replica+" 宕机了")
	},
	NodeFailed: func(f *Fact) Text {
		r := f.Reason.marked()
		return both(f.Node+": "+r.En, f.Node+"："+r.Zh)
	},
	UnknownClient: func(f *Fact) Text {
		return both(fmt.Sprintf("sim: unknown client %q", f.Client), fmt.Sprintf("没有客户端 %q", f.Client))
	},
	UnknownNode: func(f *Fact) Text {
		return both(fmt.Sprintf("sim: unknown node %q", f.Node), fmt.Sprintf("没有节点 %q", f.Node))
	},
	ClockNotSet: func(f *Fact) Text {
		r := f.Reason.marked()
		return both(r.En+" (its clock cannot be set)", r.Zh+"（它的时钟不能设置）")
	},
}

// hintZh says, in Chinese, what the amount of a fault kind is (the
// English is the hint of its row of the engine's vocabulary).
var hintZh = map[string]string{
	"pause":      "停多久，例如 1s",
	"clock-jump": "跳多少，例如 5s 或 -5s",
	"skew":       "时钟快多少，例如 2s",
}

// failover says how a master died and its replica took over.
func (f *Fact) failover() Text {
	en, zh := f.Node+" dies", f.Node+" 死了"
	if f.Real {
		en, zh = en+" (its redis-server process is killed)", zh+"（它的 redis-server 进程被杀掉）"
	}
	if len(f.Cmds) > 0 {
		en += fmt.Sprintf(" before replicating %s (lost)", strings.Join(f.Cmds, "; "))
		zh = fmt.Sprintf("%s 在把 %s 复制出去之前死了（丢失）", f.Node, strings.Join(f.Cmds, "；"))
		if f.Real {
			zh = fmt.Sprintf("%s 在把 %s 复制出去之前死了（丢失；它的 redis-server 进程被杀掉）", f.Node, strings.Join(f.Cmds, "；"))
		}
	} else {
		en += " with every write replicated"
		zh += "，所有写入都已复制"
	}
	how, howZh := "", ""
	if f.Real {
		how, howZh = " with REPLICAOF NO ONE", "（用 REPLICAOF NO ONE）"
	}
	en += fmt.Sprintf("; %s is promoted%s: clients asking for %s now reach %s", f.Replica, how, f.Node, f.Replica)
	zh += fmt.Sprintf("；%s 被提升为主节点%s：访问 %s 的客户端现在连到 %s", f.Replica, howZh, f.Node, f.Replica)
	return Text{En: en, Zh: zh}
}
