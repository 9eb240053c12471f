package fact

// faultWords says what a fault does, and why the engine refuses one.
var faultWords = phrasebook{
	Crashed: func(f *Fact) Text {
		if f.For > 0 {
			return Say("fact.crashed-restarts", f.Client, Seconds(f.For))
		}
		return Say("fact.crashed", f.Client)
	},
	StartsAgain: func(f *Fact) Text {
		return Say("fact.starts-again", f.Client, f.Incarnation)
	},
	Paused: func(f *Fact) Text {
		return Say("fact.paused", f.Client, Seconds(f.For))
	},
	RunsAgain: func(f *Fact) Text {
		return Say("fact.runs-again", f.Client)
	},
	NextRequestLost: func(f *Fact) Text {
		return Say("fact.next-request-lost", f.Client)
	},
	NextReplyLost: func(f *Fact) Text {
		return Say("fact.next-reply-lost", f.Client)
	},
	CutOff: func(f *Fact) Text {
		if f.Client == "" {
			return Say("fact.cut-off-all", f.Node)
		}
		return Say("fact.cut-off", f.Node, f.Client)
	},
	Reachable: func(f *Fact) Text {
		return Say("fact.reachable", f.Node)
	},
	BackWithData: func(f *Fact) Text {
		return Say("fact.back-with-data", f.Node)
	},
	BackEmpty: func(f *Fact) Text {
		return Say("fact.back-empty", f.Node)
	},
	ClockJumps: func(f *Fact) Text {
		return Say("fact.clock-jumps", f.Node, Seconds(f.By))
	},
	ClockAhead: func(f *Fact) Text {
		return Say("fact.clock-ahead", f.Client, Seconds(f.By))
	},
	FailedOver: (*Fact).failover,

	BadFault: func(f *Fact) Text {
		return Say("fact.bad-fault", f.Reason.marked())
	},
	UnknownKind: func(f *Fact) Text {
		return Say("fact.unknown-kind", f.Item)
	},
	AlreadyCrashed: func(f *Fact) Text {
		return Say("fact.already-crashed", f.Client)
	},
	HasCrashed: func(f *Fact) Text {
		return Say("fact.has-crashed", f.Client)
	},
	AlreadyPaused: func(f *Fact) Text {
		return Say("fact.already-paused", f.Client, Seconds(f.Until), Seconds(f.For))
	},
	IsRunning: func(f *Fact) Text {
		return Say("fact.is-running", f.Client)
	},
	RestartsItself: func(f *Fact) Text {
		return Say("fact.restarts-itself", f.Client)
	},
	NeedsAmount: func(f *Fact) Text {
		return Say("fact.needs-amount", f.Item, f.Value, f.hint())
	},
	AlreadyDown: func(f *Fact) Text {
		return Say("fact.already-down", f.Node)
	},
	NotDown: func(f *Fact) Text {
		return Say("fact.not-down", f.Node)
	},
	ClockCannotJump: func(f *Fact) Text {
		return Say("fact.clock-cannot-jump", f.Node, f.Reason.marked())
	},
	NoReplica: func(f *Fact) Text {
		return Say("fact.no-replica", f.Node)
	},
	ReplicaDown: func(f *Fact) Text {
		return Say("fact.replica-down", f.Node, f.Replica)
	},
	NodeFailed: func(f *Fact) Text {
		return Say("fact.node-failed", f.Node, f.Reason.marked())
	},
	UnknownClient: func(f *Fact) Text {
		return Say("fact.unknown-client", f.Client)
	},
	UnknownNode: func(f *Fact) Text {
		return Say("fact.unknown-node", f.Node)
	},
	ClockNotSet: func(f *Fact) Text {
		return Say("fact.clock-not-set", f.Reason.marked())
	},
}

// hint says what the amount of the fault kind Item is: the catalogue's
// words for that kind's hint (in English, the hint of its row of the
// engine's vocabulary, which sim's tests hold them to), or, for a kind
// they lack, the fact's Text in English alone.
func (f *Fact) hint() Text {
	if h, ok := hints[f.Item]; ok {
		return h
	}
	return Text{En: f.Text}
}

// hints are the catalogue's words for what each fault kind's amount is,
// by kind (a table of data: sim spells the kinds).
var hints = map[string]Text{
	"pause":      Say("fact.hint-pause"),
	"clock-jump": Say("fact.hint-clock-jump"),
	"skew":       Say("fact.hint-skew"),
}

// failover says how a master died and its replica took over.
func (f *Fact) failover() Text {
	var died Text
	switch {
	case len(f.Cmds) > 0 && f.Real:
		died = Say("fact.failover-dies-lost-real", f.Node, f.cmds())
	case len(f.Cmds) > 0:
		died = Say("fact.failover-dies-lost", f.Node, f.cmds())
	case f.Real:
		died = Say("fact.failover-dies-replicated-real", f.Node)
	default:
		died = Say("fact.failover-dies-replicated", f.Node)
	}
	if f.Real {
		return Say("fact.failover-promoted-real", died, f.Replica, f.Node)
	}
	return Say("fact.failover-promoted", died, f.Replica, f.Node)
}
