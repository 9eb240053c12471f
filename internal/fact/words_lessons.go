package fact

// lessonWords says what the lessons' services and clients do.
var lessonWords = phrasebook{
	PlainStorage: func(f *Fact) Text {
		return Say("fact.plain-storage")
	},
	FirstToken: func(f *Fact) Text {
		return Say("fact.first-token", f.Token)
	},
	TokenAccepted: func(f *Fact) Text {
		return Say("fact.token-accepted", f.Token, f.Highest)
	},
	RejectedNoToken: func(f *Fact) Text {
		return Say("fact.rejected-no-token", f.Highest)
	},
	RejectedOlder: func(f *Fact) Text {
		return Say("fact.rejected-older", f.Token, f.Highest)
	},
	DuplicateRow: func(f *Fact) Text {
		return Say("fact.duplicate-row")
	},

	HoldOf: func(f *Fact) Text {
		return Say("fact.hold-of", f.Hold, f.Depth)
	},
	HoldGivenBack: func(f *Fact) Text {
		return Say("fact.hold-given-back", f.Hold, f.Depth)
	},
	AsksAgain: func(f *Fact) Text {
		return Say("fact.asks-again", f.Hold, f.Depth)
	},
	NotInTime: func(f *Fact) Text {
		return libSays(Say("fact.not-in-time"), f.Text)
	},
	CouldNotLock: func(f *Fact) Text {
		return Say("fact.could-not-lock", f.Item)
	},
	Kept: func(f *Fact) Text {
		return Say("fact.kept")
	},
	NoLongerOurs: func(f *Fact) Text {
		return libSays(Say("fact.no-longer-ours"), f.Text)
	},
	Stock: func(f *Fact) Text {
		return Say("fact.stock", f.From, f.To)
	},
	StockRead: func(f *Fact) Text {
		return Say("fact.stock-read", f.From)
	},
	NoStock: func(f *Fact) Text {
		return Say("fact.no-stock")
	},
	Dispatch: func(f *Fact) Text {
		return Say("fact.dispatch", f.Request, f.Thread)
	},
	NothingListed: func(f *Fact) Text {
		return Say("fact.nothing-listed")
	},
	ItemNamed: func(f *Fact) Text {
		return Say("fact.item", f.Item)
	},
	AlreadySold: func(f *Fact) Text {
		return Say("fact.already-sold", f.Item)
	},
	StorageRefused: func(f *Fact) Text {
		return Say("fact.storage-refused", f.Token)
	},
	StorageAccepted: func(f *Fact) Text {
		if f.Token == 0 {
			return Say("fact.storage-accepted-write")
		}
		return Say("fact.storage-accepted", f.Token)
	},
	LocalMutex: func(f *Fact) Text {
		return Say("fact.local-mutex")
	},
	LocalMutexHeldBy: func(f *Fact) Text {
		return Say("fact.local-mutex-held", f.Holder)
	},
}
