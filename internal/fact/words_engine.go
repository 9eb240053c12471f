package fact

// engineWords says what the engine states: the network and the nodes, and its
// errors as a client's program meets them.
var engineWords = phrasebook{
	RequestLost: func(f *Fact) Text {
		return Say("fact.request-lost", f.Node)
	},
	Down: func(f *Fact) Text {
		return Say("fact.down", f.Node)
	},
	ReplyLost: func(f *Fact) Text {
		return Say("fact.reply-lost", f.Client)
	},
	NewConnection: func(f *Fact) Text {
		return Say("fact.new-connection", f.cmds())
	},
	TTLRanOut: func(f *Fact) Text {
		if f.Holder != "" && f.Node != "" {
			return Say("fact.ttl-ran-out-vote", f.Holder, f.Node, f.Have, f.Want)
		}
		if f.Holder != "" {
			return Say("fact.ttl-ran-out-holder", f.Holder)
		}
		return Say("fact.ttl-ran-out")
	},
	CleanupRows: func(f *Fact) Text {
		return Say("fact.cleanup-rows", Seconds(f.For), f.Cutoff, f.Rows)
	},
	Cleanup: func(f *Fact) Text {
		what := f.What.marked()
		if len(f.Holders) == 0 {
			return Say("fact.cleanup", what)
		}
		owners := make([]Text, len(f.Holders))
		for i, h := range f.Holders {
			owners[i] = Say("fact.cleanup-owner", h)
		}
		return Say("fact.cleanup-owners", what, join(owners, Say("fact.cleanup-owner-separator")))
	},
	CleanupFailed: func(f *Fact) Text {
		return Say("fact.cleanup-failed", f.Reason.marked())
	},
	WaitBlocks: func(f *Fact) Text {
		return Say("fact.wait-blocks", f.Replica, f.Have, f.Want)
	},
	WaitTimedOut: func(f *Fact) Text {
		return f.byEngine(Say("fact.wait-timed-out", f.Replica, f.Have, f.Want))
	},
	WaitApplied: func(f *Fact) Text {
		return f.byEngine(Say("fact.wait-applied", f.Replica))
	},
	WaitDied: func(f *Fact) Text {
		return Say("fact.wait-died", f.Node)
	},
	ReplicaOf: func(f *Fact) Text {
		if f.Real {
			return Say("fact.replica-of-real", f.Node, Seconds(f.For), f.Replica)
		}
		return Say("fact.replica-of", f.Node, Seconds(f.For))
	},
	Shipped: func(f *Fact) Text {
		if f.Real {
			return Say("fact.shipped-real", f.cmds(), f.Node, Seq(f.Write), Seconds(f.Ago))
		}
		return Say("fact.shipped", f.cmds(), f.Node, Seq(f.Write), Seconds(f.Ago))
	},
	ShipLost: func(f *Fact) Text {
		return Say("fact.ship-lost", f.Replica, f.What.marked())
	},
	ShipFailed: func(f *Fact) Text {
		return Say("fact.ship-failed", f.Reason.marked(), f.What.marked())
	},
	NotApplied: func(f *Fact) Text {
		if f.What != nil {
			return Say("fact.not-applied-what", f.Reason.marked(), f.What.marked())
		}
		return Say("fact.not-applied", f.Reason.marked())
	},
	ServerLost: func(f *Fact) Text {
		return Say("fact.server-lost", f.Reason.marked())
	},

	Refused: func(f *Fact) Text {
		return Say("fact.refused", f.Node)
	},
	TimedOut: func(f *Fact) Text {
		return Say("fact.timed-out", f.Node)
	},
	DeadlinePassed: func(f *Fact) Text {
		return Say("fact.deadline-passed")
	},
	Panic: func(f *Fact) Text {
		return Say("fact.panic", f.Text)
	},
	Failed: func(f *Fact) Text {
		if f.Reason != nil {
			// Text is the words of whoever wrapped the reason (a library's
			// "node #0: …"): quoted as it wrote them, the reason said in the
			// language's own words. English shows the words alone (they
			// hold the reason already): its sentence takes the reason at
			// precision 0.
			return Say("fact.failed-because", f.Text, f.Reason.marked())
		}
		return Say("fact.failed", f.Text)
	},
}

// byEngine adds, to a WAIT's answer, that the engine gave it.
func (f *Fact) byEngine(x Text) Text {
	if f.Engine {
		return Say("fact.answered-by-engine", x)
	}
	return x
}

// cmds is the fact's commands as redis-cli shows them, one after
// another with each language's list separator between them.
func (f *Fact) cmds() Text {
	items := make([]Text, len(f.Cmds))
	for i, c := range f.Cmds {
		items[i] = Text{En: c, Zh: c}
	}
	return join(items, Say("fact.list-separator"))
}
