package lesson

import (
	"sort"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// NodeView is what a viewer sees of one node at the cursor.
type NodeView struct {
	Name string         `json:"name"`
	Down bool           `json:"down,omitempty"`
	Keys []sim.KeyState `json:"keys"`
}

// Pending lists the clients that have a move to make at the cursor.
func (s *Session) Pending() []string { return s.run.World.Pending() }

// Nodes gives every node's keys at the cursor, read from the event log
// (never from the nodes themselves: reading a node would touch its expiry
// bookkeeping and could change the run). A key's TTL is what remains of it
// at the cursor's virtual time. The session keeps the replayed state and
// applies only the events logged since the last call, so stepping through
// a run costs each event once; a rebuilt run starts the replay afresh.
func (s *Session) Nodes() []NodeView {
	log := s.Log()
	if s.view == nil || s.view.run != s.run || s.view.n > len(log) {
		s.view = newKeyView(append(s.run.World.NodeNames(), s.run.World.ServiceNames()...))
		s.view.run = s.run
	}
	s.view.apply(log)
	return s.view.at(s.run.World.Now())
}

// NodesAt replays the key states that a log records up to now.
func NodesAt(names []string, log []*sim.Event, now time.Duration) []NodeView {
	v := newKeyView(names)
	v.apply(log)
	return v.at(now)
}

// keyView is the key state of every node, replayed from a log's first n
// events.
type keyView struct {
	names []string
	keys  map[string]map[string]sim.KeyState
	down  map[string]bool
	n     int
	run   *Run // the run whose log it replays (a session's)
}

func newKeyView(names []string) *keyView {
	v := &keyView{names: names, keys: map[string]map[string]sim.KeyState{}, down: map[string]bool{}}
	for _, n := range names {
		v.keys[n] = map[string]sim.KeyState{}
	}
	return v
}

// apply replays the events of log that the view has not seen yet.
func (v *keyView) apply(log []*sim.Event) {
	for _, e := range log[v.n:] {
		m := v.keys[e.Node]
		if m == nil {
			continue
		}
		switch {
		case e.Kind == sim.KindFault && (e.Name == string(sim.FaultNodeCrash) || e.Name == string(sim.FaultFailover)):
			v.down[e.Node] = true
			continue
		case e.Kind == sim.KindFault && e.Name == string(sim.FaultNodeRestart):
			v.down[e.Node] = false
			clear(m)
		case e.Kind != sim.KindInit && e.Kind != sim.KindExec && e.Kind != sim.KindExpire && e.Kind != sim.KindReplicate:
			continue
		}
		for _, k := range e.Keys {
			if k.Exists() {
				m[k.Key] = k
			} else {
				delete(m, k.Key)
			}
		}
	}
	v.n = len(log)
}

// at gives the nodes' keys, with each TTL as it stands at now.
func (v *keyView) at(now time.Duration) []NodeView {
	out := make([]NodeView, 0, len(v.names))
	nowMS := int64(now / time.Millisecond)
	for _, n := range v.names {
		nv := NodeView{Name: n, Down: v.down[n], Keys: []sim.KeyState{}}
		for _, k := range v.keys[n] {
			if k.Expire > 0 {
				k.TTL = max(k.Expire-nowMS, 0)
			}
			nv.Keys = append(nv.Keys, k)
		}
		sort.Slice(nv.Keys, func(i, j int) bool { return nv.Keys[i].Key < nv.Keys[j].Key })
		out = append(out, nv)
	}
	return out
}
