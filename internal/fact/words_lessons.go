package fact

import "fmt"

// lessonWords says what the lessons' services and clients do.
var lessonWords = phrasebook{
	PlainStorage: func(f *Fact) Text {
		return both("plain storage: every write is accepted", "普通存储：每次写入都被接受")
	},
	FirstToken: func(f *Fact) Text {
		return both(fmt.Sprintf("token %d: the first one seen, accepted", f.Token), fmt.Sprintf("令牌 %d：第一次见到，接受", f.Token))
	},
	TokenAccepted: func(f *Fact) Text {
		return both(fmt.Sprintf("token %d >= highest seen %d: accepted", f.Token, f.Highest),
			fmt.Sprintf("令牌 %d ≥ 见过的最大令牌 %d：接受", f.Token, f.Highest))
	},
	RejectedNoToken: func(f *Fact) Text {
		return both(fmt.Sprintf("rejected: a write without a token (the highest token seen is %d)", f.Highest),
			fmt.Sprintf("被拒绝：没有令牌的写入（见过的最大令牌是 %d）", f.Highest))
	},
	RejectedOlder: func(f *Fact) Text {
		return both(fmt.Sprintf("rejected: token %d is older than token %d (the highest token seen is %d)", f.Token, f.Highest, f.Highest),
			fmt.Sprintf("被拒绝：令牌 %d 比令牌 %d 旧（见过的最大令牌是 %d）", f.Token, f.Highest, f.Highest))
	},
	DuplicateRow: func(f *Fact) Text {
		return both("duplicate primary key: the lock row exists already", "主键重复：锁的那一行已经存在")
	},

	HoldOf: func(f *Fact) Text {
		return both(fmt.Sprintf("hold %d of %d", f.Hold, f.Depth), fmt.Sprintf("重入计数 %d / %d", f.Hold, f.Depth))
	},
	HoldGivenBack: func(f *Fact) Text {
		return both(fmt.Sprintf("hold %d of %d given back", f.Hold, f.Depth), fmt.Sprintf("归还一层（%d / %d）", f.Hold, f.Depth))
	},
	AsksAgain: func(f *Fact) Text {
		return both(fmt.Sprintf("asks again for the lock it holds (hold %d of %d)", f.Hold, f.Depth),
			fmt.Sprintf("再次请求自己已持有的锁（重入计数 %d / %d）", f.Hold, f.Depth))
	},
	NotInTime: func(f *Fact) Text {
		return libSays(both("could not acquire the lock in time", "没能及时拿到锁"), f.Text)
	},
	CouldNotLock: func(f *Fact) Text {
		return both("could not lock "+f.Item, "没能锁住 "+f.Item)
	},
	Kept: func(f *Fact) Text {
		return both("the request ends without releasing: the unlock is left to a later callback", "请求结束时没有释放锁：解锁留给之后的回调")
	},
	NoLongerOurs: func(f *Fact) Text {
		return libSays(both("the lock was no longer ours; left it alone", "锁已经不是我们的了；不去动它"), f.Text)
	},
	Stock: func(f *Fact) Text {
		return both(fmt.Sprintf("stock %d -> %d", f.From, f.To), fmt.Sprintf("库存 %d → %d", f.From, f.To))
	},
	StockRead: func(f *Fact) Text {
		return both(fmt.Sprintf("read stock %d; not written back yet", f.From), fmt.Sprintf("读到库存 %d，还没写回", f.From))
	},
	NoStock: func(f *Fact) Text {
		return both("no stock left", "没有库存了")
	},
	Dispatch: func(f *Fact) Text {
		return both(fmt.Sprintf("request %d runs on pool thread %s", f.Request, f.Thread), fmt.Sprintf("请求 %d 在线程池线程 %s 上运行", f.Request, f.Thread))
	},
	NothingListed: func(f *Fact) Text {
		return both("nothing listed", "没有上架的商品")
	},
	ItemNamed: func(f *Fact) Text {
		return both(f.Item, "商品 "+f.Item)
	},
	AlreadySold: func(f *Fact) Text {
		return both(f.Item+" was already sold", f.Item+" 已经被卖掉了")
	},
	StorageRefused: func(f *Fact) Text {
		return both(fmt.Sprintf("the storage refused fencing token %d", f.Token), fmt.Sprintf("存储拒绝了 fencing 令牌 %d", f.Token))
	},
	StorageAccepted: func(f *Fact) Text {
		if f.Token == 0 {
			return both("the storage accepted the write", "存储接受了写入")
		}
		return both(fmt.Sprintf("the storage accepted fencing token %d", f.Token), fmt.Sprintf("存储接受了 fencing 令牌 %d", f.Token))
	},
	LocalMutex: func(f *Fact) Text {
		return both("local mutex", "本地互斥锁")
	},
	LocalMutexHeldBy: func(f *Fact) Text {
		return both("local mutex is held by "+f.Holder, "本地互斥锁被 "+f.Holder+" 持有")
	},
}
