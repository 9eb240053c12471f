package sim

import (
	"github.com/lockstep/lockstep/internal/fact"
)

// On real servers whose backends are a Replicator (a master and replica
// that package realredis starts for the run), the replication is Redis'
// own: the engine copies nothing, it lets the master's stream reach the
// replica lag after each write (Deliver) and shows the commands the replica
// received; failover kills the master process, drops what the replica had
// not received and promotes it with REPLICAOF NO ONE. WAIT is still
// answered by the engine, from the replica's confirmed offset: a real WAIT
// would block the one command in flight that the stepper waits on.

// replicateReal starts a link on which Redis replicates by itself.
func (w *World) replicateReal(l *link, rl ReplicaLink) error {
	m, r := l.master, l.replica
	if err := rl.Sync(); err != nil {
		return err
	}
	off, err := rl.Offset()
	if err != nil {
		return err
	}
	l.real, l.realOff = rl, off
	w.ext.links = append(w.ext.links, l)
	ev := Event{Kind: KindInit, Node: r.name, Fact: &fact.Fact{Key: fact.ReplicaOf, Node: m.name, For: l.lag, Real: true, Replica: r.name}}
	for _, k := range m.keys() {
		if st, err := m.b.Read(k); err == nil && st.Type != "" {
			l.shipped[k] = st
			ev.Keys = append(ev.Keys, r.state(k))
		}
	}
	w.emit(ev)
	return nil
}

// applyReal lets Redis' own stream reach the replica up to the write's
// offset, and shows what the replica received and its keys after it.
func (w *World) applyReal(l *link, sh *shipment, ev *Event) {
	r := l.replica
	got, err := l.real.Deliver(sh.target)
	text := formatCmds(got, r.b.Prefix())
	ev.Cmd = flatten(got)
	ev.Fact = &fact.Fact{Key: fact.Shipped, Cmds: text, Node: l.master.name, Write: sh.write, Ago: w.now - sh.at, Real: true}
	if err != nil {
		ev.Fact = &fact.Fact{Key: fact.NotApplied, Reason: fact.Error(err), What: ev.Fact}
	}
	for _, k := range sh.keys {
		ev.Keys = append(ev.Keys, r.state(k))
	}
}
