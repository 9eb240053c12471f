package sim

import (
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

// nextExpiry finds the earliest tracked key expiry over all nodes.
func (w *World) nextExpiry() (*Node, string, time.Duration, bool) {
	var best *Node
	var key string
	var at time.Duration
	for _, n := range w.nodes {
		if n.down {
			continue
		}
		k, t, ok := n.nextExpiry()
		if ok && (best == nil || t < at) {
			best, key, at = n, k, t
		}
	}
	return best, key, at, best != nil
}

// expire logs a key's expiry on its node.
func (w *World) expire(n *Node, key string) {
	if st, ok := w.timed(n); ok {
		w.expireReported(n, st, key)
		return
	}
	prev := n.last[key]
	n.syncClock()
	ks := n.state(key)
	if ks.Exists() {
		return // renewed behind our back: state() tracked the new expiry
	}
	w.emit(Event{Kind: KindExpire, Node: n.name, Keys: []KeyState{ks}, Fact: w.ranOut(n, key, prev.Owner)})
}

// ranOut is the fact of key's expiry on node n, whose holder was holder:
// with a quorum over nodes (Config.Quorum), the holder's vote on n when the
// log still shows it holding the key on a quorum of the other nodes.
func (w *World) ranOut(n *Node, key, holder string) *fact.Fact {
	f := &fact.Fact{Key: fact.TTLRanOut, Holder: holder}
	if holder == "" || w.cfg.Quorum == nil {
		return f
	}
	q := w.cfg.Quorum(holder, key)
	if q <= 1 {
		return f
	}
	have := 0
	for _, o := range w.nodes {
		if ks, ok := o.last[key]; o != n && ok && ks.Exists() && ks.Owner == holder {
			have++
		}
	}
	if have >= q {
		f.Node, f.Have, f.Want = n.name, have, q
	}
	return f
}
