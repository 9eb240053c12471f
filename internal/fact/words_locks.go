package fact

// lockWords says what the lock algorithms do (their observer's marks), what
// the libraries run as they are say, and what the coordination services'
// leases and sessions do.
var lockWords = phrasebook{
	Replicated: func(f *Fact) Text {
		return Say("fact.replicated", f.Have, f.Want)
	},
	NotReplicated: func(f *Fact) Text {
		if f.Reason != nil {
			return Say("fact.not-replicated-failed", f.Reason.marked())
		}
		return Say("fact.not-replicated", f.Have, f.Want)
	},
	Repair: func(f *Fact) Text {
		return Say("fact.repair")
	},
	NoWatchdog: func(f *Fact) Text {
		return Say("fact.no-watchdog")
	},
	RenewLost: func(f *Fact) Text {
		return Say("fact.renew-lost")
	},
	Renewed: func(f *Fact) Text {
		return Say("fact.renewed", Seconds(f.For))
	},
	RenewedOrphan: func(f *Fact) Text {
		return Say("fact.renewed-orphan", Seconds(f.For))
	},
	ValidUntil: func(f *Fact) Text {
		return Say("fact.valid-until", Seconds(f.For))
	},
	Extended: func(f *Fact) Text {
		return Say("fact.extended", Seconds(f.For))
	},
	ExtendFailed: func(f *Fact) Text {
		return libSays(Say("fact.extend-failed"), f.Text)
	},
	Refreshed: func(f *Fact) Text {
		return Say("fact.refreshed", Seconds(f.For))
	},
	RefreshFailed: func(f *Fact) Text {
		return libSays(Say("fact.refresh-failed"), f.Text)
	},
	LeaseEnded: func(f *Fact) Text {
		if f.Holder == "" {
			return Say("fact.lease-ended", f.Item)
		}
		return Say("fact.lease-ended-holder", f.Holder, f.Item)
	},
	SessionExpired: func(f *Fact) Text {
		if f.Holder == "" {
			return Say("fact.session-expired", f.Item)
		}
		return Say("fact.session-expired-holder", f.Holder, f.Item)
	},
	SessionLost: func(f *Fact) Text {
		return Say("fact.session-lost", f.Client)
	},
	Watching: func(f *Fact) Text {
		return Say("fact.watching", f.Client, f.Item)
	},
	Woken: func(f *Fact) Text {
		return Say("fact.woken", f.Item, f.Client)
	},
	ServerStopped: func(f *Fact) Text {
		return Say("fact.server-stopped", f.Node, Seconds(f.For))
	},
	ServerResumed: func(f *Fact) Text {
		return Say("fact.server-resumed", f.Node)
	},
	PauseExpiredAll: func(f *Fact) Text {
		return Say("fact.pause-expired-all", f.Have, f.Want)
	},
	PauseOutlived: func(f *Fact) Text {
		return Say("fact.pause-outlived", f.Have, f.Want)
	},
	PauseSplit: func(f *Fact) Text {
		return Say("fact.pause-split", f.Holder, f.Client, f.Have, f.Want)
	},
	EtcdServerStopped: func(f *Fact) Text {
		return Say("fact.etcd-server-stopped", f.Node, Seconds(f.For))
	},
	EtcdServerResumed: func(f *Fact) Text {
		return Say("fact.etcd-server-resumed", f.Node)
	},
	EtcdPauseDropped: func(f *Fact) Text {
		return Say("fact.etcd-pause-dropped", f.Holder, f.Have, f.Want)
	},
	EtcdPauseKept: func(f *Fact) Text {
		return Say("fact.etcd-pause-kept", f.Holder, f.Have, f.Want)
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
		return Say("fact.session-done", f.Client)
	},
	NotOwner: func(f *Fact) Text {
		return Say("fact.not-owner", f.Client)
	},
	RealTime: func(f *Fact) Text {
		return Say("fact.real-time")
	},
	Token: func(f *Fact) Text {
		return Say("fact.token", f.Token)
	},
	ExecFailed: func(f *Fact) Text {
		return Say("fact.exec-failed", f.Tries)
	},
	ExecRetry: func(f *Fact) Text {
		return Say("fact.exec-retry", f.Tries)
	},
	StampPassed: func(f *Fact) Text {
		return Say("fact.stamp-passed", f.Value)
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
	where := Say("fact.votes-release-all")
	if v.ReleasedOn == ReleaseYes {
		where = Say("fact.votes-release-yes")
	}
	switch f.Key {
	case Quorum:
		return Say("fact.votes-quorum", v.Yes, v.Of, v.Elapsed, v.Validity, v.TTL, v.Drift)
	case TooLate:
		return Say("fact.votes-too-late", v.Yes, v.Of, v.Elapsed, v.Validity, v.TTL, v.Drift, where)
	}
	return Say("fact.votes-no-quorum", v.Yes, v.Of, v.Elapsed, v.Need, where)
}
