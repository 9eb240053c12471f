package check

// How the model applies each event: marks, faults, ends of threads, keys.

import (
	"slices"

	"github.com/lockstep/lockstep/internal/sim"
)

// observe applies one event to the model and returns what it did to the
// keys' holders.
func (m *model) observe(e *sim.Event) []change {
	switch e.Kind {
	case sim.KindMark:
		m.mark(e)
	case sim.KindFault:
		if !e.Applied() {
			return nil
		}
		m.fault(e)
	case sim.KindDone:
		t := m.threadOf(e)
		if e.Failed() {
			m.ended[t] = e.Seq
		} else if t.name == "main" {
			m.finished[t] = e.Seq
		}
		if e.Failed() || t.name == "main" {
			m.leaveAll(func(in entry) bool { return in.th == t })
		}
	case sim.KindSend:
		if e.Client != "" {
			m.sent[e.Seq] = m.threadOf(e)
		}
	case sim.KindLost, sim.KindTimeout:
		if _, ok := m.unanswered[e.Req]; !ok && e.Req != 0 {
			m.unanswered[e.Req] = e.Seq
			m.timedOut[e.Req] = e.Kind == sim.KindTimeout
		}
	}
	var out []change
	for _, k := range e.Keys {
		out = append(out, m.key(e, k))
	}
	if e.Kind == sim.KindFault && e.Name == string(sim.FaultNodeRestart) {
		// the event lists every key the node still has: the rest are gone
		kept := map[string]bool{}
		for _, k := range e.Keys {
			kept[k.Key] = true
		}
		for _, s := range m.slots() {
			if s.node == e.Node && s.present() && !kept[s.key] {
				out = append(out, m.key(e, sim.KeyState{Key: s.key, TTL: -2}))
			}
		}
	}
	return out
}

// mark applies a client's report of its algorithm's steps.
func (m *model) mark(e *sim.Event) {
	if e.Lock != "" {
		m.locks[e.Lock] = true
	}
	t := m.threadOf(e)
	switch e.Name {
	case sim.MarkAcquired:
		if m.depth[t] == nil {
			m.depth[t] = map[string]int{}
		}
		m.depth[t][e.Lock]++
	case sim.MarkReleased, sim.MarkReleaseRefused, sim.MarkReleaseFailed:
		if m.depth[t][e.Lock] > 0 {
			m.depth[t][e.Lock]--
		}
	case sim.MarkEnter:
		// a thread is inside a lock once: a second enter moves its entry
		m.leave(e.Lock, t)
		for _, ins := range m.inside {
			m.together = m.together || slices.ContainsFunc(ins, func(in entry) bool { return in.th.client != t.client })
		}
		m.inside[e.Lock] = append(m.inside[e.Lock], entry{t, e.Seq})
	case sim.MarkLeave:
		m.leave(e.Lock, t)
	}
}

// fault applies a fault to clients and nodes.
func (m *model) fault(e *sim.Event) {
	switch sim.FaultKind(e.Name) {
	case sim.FaultCrash:
		if e.Client == "" {
			return
		}
		m.leaveAll(func(in entry) bool { return in.th.client == e.Client })
		m.crashes[e.Client] = append(m.crashes[e.Client], e.Seq)
		for t := range m.depth {
			if t.client == e.Client && t.inc == m.inc[e.Client] {
				delete(m.depth, t) // a crashed process believes nothing
			}
		}
		m.inc[e.Client]++
		m.gone[e.Client] = true
	case sim.FaultRestart:
		delete(m.gone, e.Client)
	case sim.FaultClockJump:
		// the node's keys now expire at other times, which no event
		// states: forget them until the next state read
		for _, sl := range m.keys {
			if sl.node == e.Node {
				sl.state.Expire = 0
			}
		}
	case sim.FaultNodeCrash:
		m.down[e.Node] = true
	case sim.FaultNodeRestart:
		delete(m.down, e.Node)
	case sim.FaultPause, sim.FaultDropRequest, sim.FaultDropReply, sim.FaultPartition, sim.FaultHeal, sim.FaultSkew:
		// no holder and no node changes here: what follows (a late
		// reply, a lost message, a clock read) is in the events after
	case sim.FaultFailover:
		m.down[e.Node] = true
		m.retired[e.Node] = true
		for r, master := range m.opt.ReplicaOf {
			if master == e.Node {
				m.promoted[r] = true
			}
		}
	}
}

// leave takes thread t out of lock l.
func (m *model) leave(l string, t thread) {
	m.inside[l] = slices.DeleteFunc(m.inside[l], func(in entry) bool { return in.th == t })
}

// leaveAll takes out of every lock the threads inside that match.
func (m *model) leaveAll(match func(entry) bool) {
	for l, ins := range m.inside {
		keep := ins[:0]
		for _, in := range ins {
			if !match(in) {
				keep = append(keep, in)
			}
		}
		m.inside[l] = keep
	}
}
