package reference

// How a client's marks and the faults change the replayed state.

import (
	"sort"

	"github.com/lockstep/lockstep/internal/sim"
)

// mark applies a client's report of a step of its algorithm.
func (m *model) mark(e *sim.Event) {
	t := m.actor(e)
	th := m.thread(t)
	r := e.Lock
	if r != "" {
		m.marked[r] = true
	}
	switch e.Name {
	case "acquired":
		m.entered = true
		th.believe[r]++
		th.acquired[r] = append(th.acquired[r], e.Seq)
	case "released", "release-refused", "release-failed":
		if th.believe[r] > 0 {
			th.believe[r]--
		}
		switch e.Name {
		case "released":
			th.released[r] = e.Seq
		case "release-failed":
			th.relFailed[r] = e.Seq
		}
	case "reenter":
		th.reenter[r] = e.Seq
	case "gave-up":
		th.gaveUp[r] = append(th.gaveUp[r], e.Seq)
	case "token":
		if n, ok := e.FencingToken(); ok {
			m.tokens = append(m.tokens, token{seq: e.Seq, client: e.Client, res: r, n: n})
		}
	case "enter":
		m.entered = true
		m.enter(e, t, th, r)
	case "leave":
		delete(th.inside, r)
	}
}

// fault applies a fault.
func (m *model) fault(e *sim.Event) {
	if !e.Applied() {
		return
	}
	switch sim.FaultKind(e.Name) {
	case sim.FaultPause, sim.FaultDropRequest, sim.FaultDropReply, sim.FaultPartition, sim.FaultHeal, sim.FaultSkew:
		// no holder and no node changes here: what follows (a late
		// reply, a lost message, a clock read) is in the events after
	case sim.FaultCrash:
		c := m.client(e.Client)
		for t, th := range m.threads {
			if t.client == e.Client && t.inc == c.inc {
				clear(th.inside)
				clear(th.believe)
			}
		}
		c.inc++
		c.crashed = true
		c.crashes = append(c.crashes, e.Seq)
	case sim.FaultRestart:
		m.client(e.Client).crashed = false
	case sim.FaultNodeCrash:
		m.node(e.Node).down = true
	case sim.FaultClockJump:
		// the node's keys now expire at other world times, which no event
		// states: their expiry is unknown until an event shows them again
		for _, k := range m.node(e.Node).keys {
			k.state.Expire = 0
		}
	case sim.FaultFailover:
		m.failedOver[e.Node] = e.Seq
		n := m.node(e.Node)
		n.down, n.outOfService = true, true
		m.failoverStock(e)
	case sim.FaultNodeRestart:
		n := m.node(e.Node)
		n.down = false
		shown := map[string]bool{}
		for _, ks := range e.Keys {
			shown[ks.Key] = true
		}
		var gone []sim.KeyState
		for name := range n.keys {
			if !shown[name] {
				gone = append(gone, sim.KeyState{Key: name, TTL: -2})
			}
		}
		sort.Slice(gone, func(i, j int) bool { return gone[i].Key < gone[j].Key })
		m.observed(&sim.Event{Seq: e.Seq, Kind: e.Kind, Node: e.Node, Keys: append(gone, e.Keys...)})
	}
}
