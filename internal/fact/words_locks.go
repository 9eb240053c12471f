package fact

import "fmt"

// lockWords says what the lock algorithms do (their observer's marks), what
// the libraries run as they are say, and what the coordination services'
// leases and sessions do.
var lockWords = phrasebook{
	Replicated: func(f *Fact) Text {
		return both(fmt.Sprintf("WAIT: %d of %d replicas have the lock", f.Have, f.Want), fmt.Sprintf("WAIT：%d 个副本中有 %d 个拿到了锁", f.Want, f.Have))
	},
	NotReplicated: func(f *Fact) Text {
		if f.Reason != nil {
			r := f.Reason.marked()
			return both("WAIT failed ("+r.En+"); releasing", "WAIT 失败（"+r.Zh+"）；释放锁")
		}
		return both(fmt.Sprintf("WAIT: only %d of %d replicas confirmed; releasing", f.Have, f.Want),
			fmt.Sprintf("WAIT：%d 个副本中只有 %d 个确认；释放锁", f.Want, f.Have))
	},
	Repair: func(f *Fact) Text {
		return both("the lock has no TTL: its holder died before EXPIRE; setting it", "锁没有 TTL：持有者在 EXPIRE 之前就死了；现在补上")
	},
	NoWatchdog: func(f *Fact) Text {
		return both("this process cannot start threads", "这个进程不能启动线程")
	},
	RenewLost: func(f *Fact) Text {
		return both("the lock is no longer ours: the watchdog stops", "锁已经不是我们的了：看门狗停止")
	},
	Renewed: func(f *Fact) Text {
		return both("expire "+Seconds(f.For), "续期到 "+Seconds(f.For))
	},
	RenewedOrphan: func(f *Fact) Text {
		return both("expire "+Seconds(f.For)+", for a thread that died on an error: an orphaned watchdog, nobody will release the lock",
			"续期到 "+Seconds(f.For)+"，可它续期的线程已经因错误死了：孤儿看门狗，再也没有人会释放这把锁")
	},
	ValidUntil: func(f *Fact) Text {
		return both("Until() is "+Seconds(f.For)+" from now (now + expiry - elapsed - drift)", "Until() 距现在还有 "+Seconds(f.For)+"（now + expiry − 耗时 − 漂移）")
	},
	Extended: func(f *Fact) Text {
		return both("Until() is "+Seconds(f.For)+" from now", "Until() 距现在还有 "+Seconds(f.For))
	},
	ExtendFailed: func(f *Fact) Text {
		return libSays(both("Extend failed: the lock is not held on a quorum any more; the loop stops", "延期失败：锁已经不在多数节点上了；循环停止"), f.Text)
	},
	Refreshed: func(f *Fact) Text {
		return both("pexpire "+Seconds(f.For), "PEXPIRE 续期到 "+Seconds(f.For))
	},
	RefreshFailed: func(f *Fact) Text {
		return libSays(both("Refresh failed; the loop stops", "刷新失败；循环停止"), f.Text)
	},
	LeaseEnded: func(f *Fact) Text {
		if f.Holder == "" {
			return both("the lease ended: etcd deleted "+f.Item, "租约结束：etcd 删除了 "+f.Item)
		}
		return both("the lease of "+f.Holder+"'s session ended: etcd deleted "+f.Item+"; "+f.Holder+" has not been told",
			f.Holder+" 的会话租约结束：etcd 删除了 "+f.Item+"；"+f.Holder+" 还没有被告知")
	},
	SessionExpired: func(f *Fact) Text {
		if f.Holder == "" {
			return both("a session expired: ZooKeeper deleted "+f.Item, "会话过期：ZooKeeper 删除了 "+f.Item)
		}
		return both(f.Holder+"'s session expired: ZooKeeper deleted "+f.Item+"; "+f.Holder+" has not been told",
			f.Holder+" 的会话过期了：ZooKeeper 删除了 "+f.Item+"；"+f.Holder+" 还没有被告知")
	},
	SessionLost: func(f *Fact) Text {
		return both(f.Client+"'s client hears that its session expired: only now can it learn that its lock node is gone",
			f.Client+" 的客户端得知会话已过期：直到此刻它才能知道自己的锁节点已经没了")
	},
	Watching: func(f *Fact) Text {
		return both(f.Client+" watches only "+f.Item+", the node just below its own, and waits",
			f.Client+" 只监视 "+f.Item+"（排在它前面的那个节点），然后等待")
	},
	Woken: func(f *Fact) Text {
		return both(f.Item+" is gone: "+f.Client+"'s watch fires, and only "+f.Client+" wakes",
			f.Item+" 没了："+f.Client+" 的监视触发，只有 "+f.Client+" 被唤醒")
	},
	ServerStopped: func(f *Fact) Text {
		return both(f.Node+" is stopped for "+Seconds(f.For)+" (SIGSTOP of its JVM): it answers nothing, and the clock its sessions are kept by runs on",
			f.Node+" 被停住 "+Seconds(f.For)+"（向它的 JVM 发 SIGSTOP）：它什么也不回答，而它管理会话所用的时钟照常走")
	},
	ServerResumed: func(f *Fact) Text {
		return both(f.Node+" runs again (SIGCONT): its session tracker finds every deadline passed, and races the pings the kernel queued while it was stopped",
			f.Node+" 恢复运行（SIGCONT）：它的会话跟踪器发现所有期限都已过去，与停住期间内核排队的心跳赛跑")
	},
	PauseExpiredAll: func(f *Fact) Text {
		return both(fmt.Sprintf("This run: the session tracker won the race and expired every session at once, the healthy holder's with the waiter's (as it did in %d of %d runs measured). The outcome is a race inside ZooKeeper, not a rule: in other runs the queued pings win and every session lives on, or the race splits.", f.Have, f.Want),
			fmt.Sprintf("这一次：会话跟踪器赢了这场赛跑，一下子让所有会话过期，健康的持有者和等待者一起（实测 %d 次中有 %d 次如此）。结果是 ZooKeeper 内部的一场竞争，不是规律：在别的几次里，是排队的心跳先到、所有会话都活了下来，或者这场竞争分开了。", f.Want, f.Have))
	},
	PauseOutlived: func(f *Fact) Text {
		return both(fmt.Sprintf("This run: the pings queued while the server was stopped reached it first and touched the sessions, so every session lived on (as it did in %d of %d runs measured). The outcome is a race inside ZooKeeper, not a rule: in most runs the session tracker wins and expires every session at once.", f.Have, f.Want),
			fmt.Sprintf("这一次：服务器停住期间排队的心跳先到，刷新了会话，所以所有会话都活了下来（实测 %d 次中有 %d 次如此）。结果是 ZooKeeper 内部的一场竞争，不是规律：多数时候是会话跟踪器先赢，一下子让所有会话过期。", f.Want, f.Have))
	},
	PauseSplit: func(f *Fact) Text {
		return both(fmt.Sprintf("This run: the race split: %s's session expired on the resume and %s's lived on (as it did in %d of %d runs measured). The outcome is a race inside ZooKeeper, not a rule: in most runs every session expires at once, in some every session lives on.", f.Holder, f.Client, f.Have, f.Want),
			fmt.Sprintf("这一次：这场竞争分开了：恢复时 %s 的会话过期了，%s 的会话活了下来（实测 %d 次中有 %d 次如此）。结果是 ZooKeeper 内部的一场竞争，不是规律：多数时候所有会话一下子都过期，有时所有会话都活下来。", f.Holder, f.Client, f.Want, f.Have))
	},
	EtcdServerStopped: func(f *Fact) Text {
		return both(f.Node+" is stopped for "+Seconds(f.For)+" (SIGSTOP of its process): it answers nothing, and the wall clock its leases end by runs on",
			f.Node+" 被停住 "+Seconds(f.For)+"（向它的进程发 SIGSTOP）：它什么也不回答，而它结束租约所依据的墙上时钟照常走")
	},
	EtcdServerResumed: func(f *Fact) Text {
		return both(f.Node+" runs again (SIGCONT): every lease whose end passed while it was stopped is expired, and a keep-alive that arrives late cannot renew it",
			f.Node+" 恢复运行（SIGCONT）：停住期间已到期的每个租约都被判为过期，迟到的续约也续不上")
	},
	EtcdPauseDropped: func(f *Fact) Text {
		return both(fmt.Sprintf("This run: the server revoked %s's lease after its resume and deleted its key while %s, never paused itself, was inside (as it did in %d of %d runs measured).", f.Holder, f.Holder, f.Have, f.Want),
			fmt.Sprintf("这一次：服务器恢复后撤销了 %s 的租约并删除了它的键，而 %s 自己从未停顿、仍在临界区内（实测 %d 次中有 %d 次如此）。", f.Holder, f.Holder, f.Want, f.Have))
	},
	EtcdPauseKept: func(f *Fact) Text {
		return both(fmt.Sprintf("This run: %s's lease lived on through the server's pause (as it did in %d of %d runs measured): its key was not deleted after the resume.", f.Holder, f.Have, f.Want),
			fmt.Sprintf("这一次：%s 的租约熬过了服务器的停顿（实测 %d 次中有 %d 次如此）：恢复后它的键没有被删除。", f.Holder, f.Want, f.Have))
	},
	EtcdServerCrashed: func(f *Fact) Text {
		return Say("fact.etcd-server-crashed", f.Node, Seconds(f.For))
	},
	EtcdServerRestarted: func(f *Fact) Text {
		return Say("fact.etcd-server-restarted", f.Node)
	},
	EtcdRestartKept: func(f *Fact) Text {
		return Say("fact.etcd-restart-kept", f.Holder, f.Have, f.Want)
	},
	EtcdRestartLost: func(f *Fact) Text {
		return Say("fact.etcd-restart-lost", f.Holder, f.Have, f.Want)
	},
	SessionDone: func(f *Fact) Text {
		return both(f.Client+"'s Session.Done fired: only now can it learn that its lease is gone",
			f.Client+" 的 Session.Done 触发了：直到此刻它才能得知自己的租约已经没了")
	},
	NotOwner: func(f *Fact) Text {
		return both("Txn If IsOwner() failed: "+f.Client+"'s key is no longer the lock's first, so nothing was written",
			"Txn If IsOwner() 失败："+f.Client+" 的键已不是锁的第一个，所以什么也没写")
	},
	RealTime: func(f *Fact) Text {
		return both("live server, real time: the same schedule gives the same verdict, not the same milliseconds",
			"真实服务器、真实时间：同样的安排得到同样的结论，但不是同样的毫秒数")
	},
	Token: func(f *Fact) Text {
		return both(fmt.Sprintf("fencing token %d", f.Token), fmt.Sprintf("fencing 令牌 %d", f.Token))
	},
	ExecFailed: func(f *Fact) Text {
		return both(fmt.Sprintf("EXEC failed %d times", f.Tries), fmt.Sprintf("EXEC 失败了 %d 次", f.Tries))
	},
	ExecRetry: func(f *Fact) Text {
		return both(fmt.Sprintf("EXEC answered nil: a watched key changed (retry %d)", f.Tries), fmt.Sprintf("EXEC 返回 nil：被监视的键变了（第 %d 次重试）", f.Tries))
	},
	StampPassed: func(f *Fact) Text {
		return both("the lock's timestamp "+f.Value+" has passed by this client's clock", "按这个客户端的时钟，锁的时间戳 "+f.Value+" 已经过了")
	},
	Quorum:   (*Fact).votes,
	TooLate:  (*Fact).votes,
	NoQuorum: (*Fact).votes,
}

// votes says how a Redlock vote went.
func (f *Fact) votes() Text {
	v := f.Votes
	if v == nil {
		v = &Votes{}
	}
	where, whereZh := "every master", "每个主节点"
	if v.ReleasedOn == ReleaseYes {
		where, whereZh = "the masters that said yes (a lease of ours is still held)", "投了赞成票的主节点（我们在那里的租约还在）"
	}
	got := fmt.Sprintf("%d/%d in %s", v.Yes, v.Of, v.Elapsed)
	gotZh := fmt.Sprintf("%s 内拿到 %d/%d 票", v.Elapsed, v.Yes, v.Of)
	validity := fmt.Sprintf("validity %s = ttl %s - elapsed %s - drift %s", v.Validity, v.TTL, v.Elapsed, v.Drift)
	validityZh := fmt.Sprintf("有效期 %s = TTL %s − 耗时 %s − 漂移 %s", v.Validity, v.TTL, v.Elapsed, v.Drift)
	switch f.Key {
	case Quorum:
		return Text{En: got + ", " + validity, Zh: gotZh + "，" + validityZh}
	case TooLate:
		return Text{En: got + ", " + validity + ": no time left, releasing on " + where,
			Zh: gotZh + "，" + validityZh + "：没有剩余时间，在" + whereZh + "上释放"}
	}
	return Text{En: fmt.Sprintf("%s, need %d: releasing on %s", got, v.Need, where),
		Zh: fmt.Sprintf("%s，需要 %d 票：在%s上释放", gotZh, v.Need, whereZh)}
}
