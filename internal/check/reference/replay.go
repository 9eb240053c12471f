package reference

// How each event replays: requests, executed commands, expiries, replication.

import (
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// event replays one event.
func (m *model) event(e *sim.Event) {
	m.endT = e.T
	switch e.Kind {
	case sim.KindSend:
		m.reqInc[e.Seq] = m.client(e.Client).inc
	case sim.KindLost, sim.KindTimeout:
		if _, ok := m.reqFail[e.Req]; !ok && e.Req != 0 {
			m.reqFail[e.Req] = e.Seq
		}
	case sim.KindExec:
		m.exec(e)
	case sim.KindExpire, sim.KindInit:
		m.observed(e)
	case sim.KindReplicate:
		m.replicate(e)
	case sim.KindMark:
		m.mark(e)
	case sim.KindFault:
		m.fault(e)
	case sim.KindDone:
		t := m.actor(e)
		th := m.thread(t)
		th.done = e.Seq
		if e.Failed() {
			th.failed = true
		}
		if e.Failed() || t.name == "main" {
			clear(th.inside)
		}
	}
	m.track(e)
}

// observed applies the keys of an event that is no client's write: a key
// shown gone, or with a value it did not have, is held by nobody.
func (m *model) observed(e *sim.Event) {
	n := m.node(e.Node)
	for _, ks := range e.Keys {
		m.expireIfDue(e, n, ks.Key)
		m.stockSeen(e, n, ks)
		m.observedKey(n, ks)
		m.remember(n, ks)
	}
}

// expireIfDue: a key whose expiry time (its last state's Expire, in whole
// ms of world time) has passed — the event comes a millisecond or more
// after it — when an event shows it went by expiry first, whatever the
// event shows next. Nobody holds it any more.
func (m *model) expireIfDue(e *sim.Event, n *node, name string) {
	k := n.keys[name]
	if k == nil || k.state.Expire <= 0 || e.T < time.Duration(k.state.Expire+1)*time.Millisecond {
		return
	}
	delete(n.keys, name)
	if m.opt.StockKey != "" && name == m.opt.StockKey {
		n.stock, n.latest, n.handedAt = version{}, version{}, 0
	}
}

// remember records a key's state on a node, for replicas.
func (m *model) remember(n *node, ks sim.KeyState) {
	var hs []holder
	if k := n.keys[ks.Key]; k != nil {
		hs = slices.Clone(k.holders)
	}
	n.history[ks.Key] = append(n.history[ks.Key], written{state: ks, holders: hs})
}

// exec applies a command a node executed.
func (m *model) exec(e *sim.Event) {
	n := m.node(e.Node)
	t := m.actor(e)
	th := m.thread(t)
	write := e.Client != "" && writes(e.Cmd)
	for _, ks := range e.Keys {
		m.expireIfDue(e, n, ks.Key)
		k := n.keys[ks.Key]
		before := k != nil
		var old []holder
		if k != nil {
			old = k.holders
		}
		changed := before != ks.Exists() || before && !sameValue(k.state, ks)
		th.attempts[e.Node+"\x00"+ks.Key] = append(th.attempts[e.Node+"\x00"+ks.Key], attempt{e.Seq, changed, write})
		if !write {
			if len(e.Cmd) == 2 && strings.EqualFold(e.Cmd[0], "GET") {
				th.read[e.Node+"\x00"+ks.Key] = ks
			}
			m.stockRead(e, n, t, ks)
			m.observedKey(n, ks)
			m.refusal(e, n, t, ks)
			m.remember(n, ks)
			continue
		}
		// A GETSET whose thread read another value than the one it
		// replaced, or read one where the key was gone, lost the takeover
		// (it knows: its reply says so).
		read, wasRead := th.read[e.Node+"\x00"+ks.Key]
		getset := strings.EqualFold(e.Cmd[0], "GETSET") && wasRead
		switch {
		case !before && !ks.Exists():
		case !before && getset && read.Exists():
			n.keys[ks.Key] = &key{state: ks} // the loser's stamp, held by nobody
		case !before:
			n.keys[ks.Key] = &key{state: ks, holders: []holder{{t, e.Seq, e.Req, 0}}}
		case !ks.Exists():
			delete(n.keys, ks.Key)
			m.foreignUnlock(e, t, ks.Key, old)
		case k.state.Type != ks.Type:
			n.keys[ks.Key] = &key{state: ks, holders: []holder{{t, e.Seq, e.Req, 0}}}
		case ks.Type == "hash":
			fields, up, down := hashChange(k.state.Value, ks.Value)
			switch {
			case fields:
				k.holders = []holder{{t, e.Seq, e.Req, 0}}
			case up:
				if i := slices.IndexFunc(k.holders, func(h holder) bool { return h.t == t }); i >= 0 {
					k.holders[i].extra++
				} else {
					k.holders = append(k.holders, holder{t, e.Seq, e.Req, 0})
				}
			case down:
				if i := slices.IndexFunc(k.holders, func(h holder) bool { return h.t == t }); i >= 0 && k.holders[i].extra > 0 {
					k.holders[i].extra--
				} else {
					k.holders = slices.DeleteFunc(k.holders, func(h holder) bool { return h.t == t })
				}
			}
			k.state = ks
		case k.state.Value != ks.Value:
			lost := getset && (!read.Exists() || read.Value != k.state.Value)
			if !lost {
				k.holders = []holder{{t, e.Seq, e.Req, 0}}
			}
			k.state = ks
		default:
			k.state = ks
		}
		if k := n.keys[ks.Key]; k != nil && k.holds(t) && !slices.ContainsFunc(old, func(h holder) bool { return h.t == t }) && m.isLock(ks.Key) {
			th.gotKey = append(th.gotKey, e.Seq) // its wait, if it waited, is over
		}
		m.stockWrite(e, n, t, ks)
		m.refusal(e, n, t, ks)
		m.remember(n, ks)
	}
	m.tried(e, th)
	m.staleWrite(e, t)
}

// tried records the exec as a try to take a lock when it gave the thread a
// lock key or was refused one (once, whatever the number of keys).
func (m *model) tried(e *sim.Event, th *thread) {
	got := len(th.gotKey) > 0 && th.gotKey[len(th.gotKey)-1] == e.Seq
	refused := len(th.refused) > 0 && th.refused[len(th.refused)-1].seq == e.Seq
	if (got || refused) && (len(th.tries) == 0 || th.tries[len(th.tries)-1].seq != e.Seq) {
		th.tries = append(th.tries, try{e.Seq, int64(e.T)})
	}
}

// observedKey takes one key's new state when no client wrote it: gone, or
// a value the key did not have, is held by nobody.
func (m *model) observedKey(n *node, ks sim.KeyState) {
	k := n.keys[ks.Key]
	switch {
	case !ks.Exists():
		delete(n.keys, ks.Key)
	case k == nil || !sameValue(k.state, ks):
		n.keys[ks.Key] = &key{state: ks}
	default:
		k.state = ks
	}
}

// refusal records a refused attempt on a lock key.
func (m *model) refusal(e *sim.Event, n *node, t threadID, ks sim.KeyState) {
	if e.Client == "" || !m.isLock(ks.Key) {
		return
	}
	k := n.keys[ks.Key]
	if k == nil || len(k.holders) == 0 {
		return
	}
	for _, h := range k.holders {
		if h.t.client == t.client && h.t.inc == t.inc {
			return
		}
	}
	th := m.thread(t)
	th.refused = append(th.refused, refusal{seq: e.Seq, t: int64(e.T), node: e.Node, key: ks.Key})
}

// replicate applies a write a replica received from its master: its
// holders are those of the latest write on the master that left the same
// value, each from this event on unless it held the replica's key already.
func (m *model) replicate(e *sim.Event) {
	n := m.node(e.Node)
	master := m.node(m.opt.ReplicaOf[e.Node])
	for _, ks := range e.Keys {
		m.expireIfDue(e, n, ks.Key)
		m.stockSeen(e, n, ks)
		if !ks.Exists() {
			delete(n.keys, ks.Key)
			m.remember(n, ks)
			continue
		}
		var hs []holder
		hist := master.history[ks.Key]
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].state.Exists() && sameValue(hist[i].state, ks) {
				hs = hist[i].holders
				break
			}
		}
		// A replica's copy is held from the replicate event on (by a
		// thread that did not hold it already).
		old := n.keys[ks.Key]
		k := &key{state: ks}
		for _, h := range hs {
			since := e.Seq
			if old != nil {
				for _, o := range old.holders {
					if o.t == h.t {
						since = o.since
					}
				}
			}
			k.holders = append(k.holders, holder{h.t, since, h.req, h.extra})
		}
		n.keys[ks.Key] = k
		m.remember(n, ks)
	}
}
