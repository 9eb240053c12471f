package sim

import "time"

// Move is one client's next move: its earliest pending item, which
// StepClient would carry out. A schedule search reads the moves open at a
// step to choose among them.
type Move struct {
	Client string
	T      time.Duration // when the move is due
	Exec   bool          // a request of the client's reaches its node (else: the client's own code runs)
	Node   string        // for Exec: the node that runs the request
	Keys   []string      // for Exec: the keys the request names
	Next   bool          // the engine's own Step would take exactly this move next
}

// Commutes reports whether two moves of different clients give the same
// state in either order: both are commands due at the same instant that
// run on different nodes, or on the same node on disjoint keys. A client's
// own code is taken to depend on everything (it may emit marks whose order
// the checker reads).
func (m Move) Commutes(o Move) bool {
	if m.Client == o.Client || !m.Exec || !o.Exec || m.T != o.T {
		return false
	}
	if m.Node != o.Node {
		return true
	}
	if len(m.Keys) == 0 || len(o.Keys) == 0 {
		return false // a keyless command (SCRIPT LOAD, WAIT, MULTI...) may touch anything
	}
	for _, a := range m.Keys {
		for _, b := range o.Keys {
			if a == b {
				return false
			}
		}
	}
	return true
}

// Moves lists, in client order, the next move of every client whose
// earliest pending item is due no later than window after the earliest
// item of the whole world (window 0: the clients tied for the next
// instant), and not after the horizon. Stepping a later one first with
// StepClient moves the clock to its time, so the others run up to window
// late. Moves is empty when the run is over.
func (w *World) Moves(window time.Duration) []Move {
	if w.ended || w.closed {
		return nil
	}
	first := w.q.peek()
	if first == nil {
		return nil
	}
	limit := first.t + window
	if limit > w.cfg.Horizon {
		limit = w.cfg.Horizon
	}
	var out []Move
	for _, p := range w.procs {
		best := w.q.earliest(func(it *item) bool { return it.th != nil && it.th.proc == p })
		if best == nil || best.t > limit {
			continue
		}
		m := Move{Client: p.name, T: best.t}
		if best.kind == itemExec && best.req != nil {
			m.Exec, m.Node = true, best.req.node.name
			for _, a := range best.req.args {
				for _, k := range keysOf(a) {
					if !containsString(m.Keys, k) {
						m.Keys = append(m.Keys, k)
					}
				}
			}
		}
		m.Next = best == first && w.aloneFirst()
		out = append(out, m)
	}
	return out
}

// aloneFirst reports whether the earliest item is due strictly before
// every other item and every key expiry: Step takes it and nothing else.
func (w *World) aloneFirst() bool {
	first := w.q.peek()
	for _, it := range w.q.items {
		if it != first && it.t == first.t {
			return false
		}
	}
	_, _, at, ok := w.nextExpiry()
	return !ok || at > first.t+w.guard()
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
