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
func (s *Session) Pending() []string {
	if s.run.Done() {
		return nil // the run is over: nobody moves again
	}
	return s.run.World.Pending()
}

// Nodes gives every node's keys at the cursor, read from the event log
// (never from the nodes themselves: reading a node would touch its expiry
// bookkeeping and could change the run). A key's TTL is what remains of it
// at the cursor's virtual time.
func (s *Session) Nodes() []NodeView {
	return NodesAt(append(s.run.World.NodeNames(), s.run.World.ServiceNames()...), s.Log(), s.run.World.Now())
}

// NodesAt replays the key states that a log records up to now.
func NodesAt(names []string, log []*sim.Event, now time.Duration) []NodeView {
	keys := map[string]map[string]sim.KeyState{}
	down := map[string]bool{}
	for _, n := range names {
		keys[n] = map[string]sim.KeyState{}
	}
	for _, e := range log {
		m := keys[e.Node]
		if m == nil {
			continue
		}
		switch {
		case e.Kind == sim.KindFault && (e.Name == string(sim.FaultNodeCrash) || e.Name == string(sim.FaultFailover)):
			down[e.Node] = true
			continue
		case e.Kind == sim.KindFault && e.Name == string(sim.FaultNodeRestart):
			down[e.Node] = false
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
	out := make([]NodeView, 0, len(names))
	nowMS := int64(now / time.Millisecond)
	for _, n := range names {
		v := NodeView{Name: n, Down: down[n], Keys: []sim.KeyState{}}
		for _, k := range keys[n] {
			if k.Expire > 0 {
				k.TTL = max(k.Expire-nowMS, 0)
			}
			v.Keys = append(v.Keys, k)
		}
		sort.Slice(v.Keys, func(i, j int) bool { return v.Keys[i].Key < v.Keys[j].Key })
		out = append(out, v)
	}
	return out
}
