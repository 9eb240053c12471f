package fact

import (
	"fmt"
	"strings"
)

// engineWords says what the engine states: the network and the nodes, and its
// errors as a client's program meets them.
var engineWords = phrasebook{
	RequestLost: func(f *Fact) Text {
		return both("the request never reached "+f.Node, "请求没有到达 "+f.Node)
	},
	Down: func(f *Fact) Text {
		return both(f.Node+" is down", f.Node+" 宕机了")
	},
	ReplyLost: func(f *Fact) Text {
		return both("the reply never reached "+f.Client, "回复没有到达 "+f.Client)
	},
	NewConnection: func(f *Fact) Text {
		return both("new connection: "+strings.Join(f.Cmds, "; "), "新连接："+strings.Join(f.Cmds, "；"))
	},
	TTLRanOut: func(f *Fact) Text {
		if f.Holder != "" && f.Node != "" {
			return both(fmt.Sprintf("TTL ran out; %s's vote on %s is gone (%s still holds the key on %d nodes, a quorum of %d)", f.Holder, f.Node, f.Holder, f.Have, f.Want),
				fmt.Sprintf("TTL 到期，%s 在 %s 上的票没了（%s 仍在 %d 个节点上持有这个 key，达到 %d 个的多数）", f.Holder, f.Node, f.Holder, f.Have, f.Want))
		}
		if f.Holder != "" {
			return both("TTL ran out; "+f.Holder+"'s lock is gone", "TTL 到期，"+f.Holder+" 的锁没了")
		}
		return both("TTL ran out", "TTL 到期")
	},
	CleanupRows: func(f *Fact) Text {
		return both(fmt.Sprintf("the rows older than %s (created_ms < %d): %d row(s)", Seconds(f.For), f.Cutoff, f.Rows),
			fmt.Sprintf("早于 %s 的行（created_ms < %d）：%d 行", Seconds(f.For), f.Cutoff, f.Rows))
	},
	Cleanup: func(f *Fact) Text {
		what := f.What.marked()
		en, zh := "cleanup job deleted "+what.En, "清理任务删除了"+what.Zh
		if len(f.Holders) > 0 {
			owners := make([]string, len(f.Holders))
			for i, h := range f.Holders {
				owners[i] = h + "'s"
			}
			en += "; " + strings.Join(owners, ", ") + " lock is gone"
			zh += "；" + strings.Join(f.Holders, "、") + " 的锁没了"
		}
		return both(en, zh)
	},
	CleanupFailed: func(f *Fact) Text {
		r := f.Reason.marked()
		return both("cleanup job failed: "+r.En, "清理任务失败："+r.Zh)
	},
	WaitBlocks: func(f *Fact) Text {
		return both(fmt.Sprintf("WAIT blocks: %s has applied %d of the %d writes shipped", f.Replica, f.Have, f.Want),
			fmt.Sprintf("WAIT 阻塞：%s 只应用了已发送的 %d 个写入中的 %d 个", f.Replica, f.Want, f.Have))
	},
	WaitTimedOut: func(f *Fact) Text {
		return f.byEngine(both(fmt.Sprintf("timed out: %s has applied %d of %d writes", f.Replica, f.Have, f.Want),
			fmt.Sprintf("超时：%s 只应用了 %d 个写入中的 %d 个", f.Replica, f.Want, f.Have)))
	},
	WaitApplied: func(f *Fact) Text {
		return f.byEngine(both(f.Replica+" has applied every write up to here", f.Replica+" 已经应用了到这里为止的每个写入"))
	},
	WaitDied: func(f *Fact) Text {
		return both(f.Node+" died while the WAIT was blocked", f.Node+" 在 WAIT 阻塞期间死了")
	},
	ReplicaOf: func(f *Fact) Text {
		if f.Real {
			return both(fmt.Sprintf("replica of %s (lag %s): a redis-server under REPLICAOF, synced by Redis; its stream now waits %s in a relay before it reaches %s",
				f.Node, Seconds(f.For), Seconds(f.For), f.Replica),
				fmt.Sprintf("%s 的副本（延迟 %s）：一个 REPLICAOF 下的 redis-server，由 Redis 同步；它的复制流现在先在中继里等 %s 才到达 %s",
					f.Node, Seconds(f.For), Seconds(f.For), f.Replica))
		}
		return both(fmt.Sprintf("replica of %s (lag %s): full sync", f.Node, Seconds(f.For)), fmt.Sprintf("%s 的副本（延迟 %s）：全量同步", f.Node, Seconds(f.For)))
	},
	Shipped: func(f *Fact) Text {
		en := fmt.Sprintf("%s from %s (the write at #%d, %s ago)", strings.Join(f.Cmds, "; "), f.Node, Seq(f.Write), Seconds(f.Ago))
		zh := fmt.Sprintf("来自 %s 的 %s（#%d 的写入，%s 之前）", f.Node, strings.Join(f.Cmds, "；"), Seq(f.Write), Seconds(f.Ago))
		if f.Real {
			en, zh = en+", as Redis streamed it", zh+"，由 Redis 的复制流送达"
		}
		return both(en, zh)
	},
	ShipLost: func(f *Fact) Text {
		w := f.What.marked()
		return both("lost, "+f.Replica+" is down: "+w.En, "丢失，"+f.Replica+" 宕机了："+w.Zh)
	},
	ShipFailed: func(f *Fact) Text {
		r, w := f.Reason.marked(), f.What.marked()
		return both("failed ("+r.En+"): "+w.En, "失败（"+r.Zh+"）："+w.Zh)
	},
	NotApplied: func(f *Fact) Text {
		r := f.Reason.marked()
		if f.What != nil {
			w := f.What.marked()
			return both("not applied ("+r.En+"): "+w.En, "未执行（"+r.Zh+"）："+w.Zh)
		}
		return both("not applied: "+r.En, "未执行："+r.Zh)
	},
	ServerLost: func(f *Fact) Text {
		r := f.Reason.marked()
		return both("the server stopped answering ("+r.En+"): the run ends here", "服务器不再应答（"+r.Zh+"）：运行到此结束")
	},

	Refused: func(f *Fact) Text {
		return both("connection refused ("+f.Node+" is down)", "连接被拒绝（"+f.Node+" 宕机了）")
	},
	TimedOut: func(f *Fact) Text {
		return both("i/o timeout (no reply from "+f.Node+")", "I/O 超时（"+f.Node+" 没有回复）")
	},
	DeadlinePassed: func(f *Fact) Text {
		return both("the caller's context deadline passed", "调用方 context 的截止时间已过")
	},
	Panic: func(f *Fact) Text {
		return both("panic: "+f.Text, "程序崩溃（panic）："+f.Text)
	},
	Failed: func(f *Fact) Text {
		if f.Reason != nil {
			// Text is the words of whoever wrapped the reason (a library's
			// "node #0: …"): quoted as it wrote them, the reason said in 中文.
			return both(f.Text, "出错：\""+f.Text+"\"（"+f.Reason.marked().Zh+"）")
		}
		return both(f.Text, "出错："+f.Text)
	},
}

// byEngine adds, to a WAIT's answer, that the engine gave it.
func (f *Fact) byEngine(x Text) Text {
	if f.Engine {
		x.En += " (answered by the engine from the replica's confirmed replication offset)"
		x.Zh += "（由引擎根据副本已确认的复制偏移量作答）"
	}
	return x
}
