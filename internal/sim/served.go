package sim

import (
	"slices"
	"time"
)

// Expiry is a key its server reported expired: its name (without the
// prefix) and, when known, the first moment it was gone on the server's
// clock (its TTL ran out).
type Expiry struct {
	Key string
	At  time.Time // zero: not known
}

// ServerTimed is implemented by a backend whose server runs commands and
// expires keys on its own clock (a real redis-server). The engine then
// logs each exec event with the bracket within which the server ran the
// command, and an expire event for exactly the keys the server reported
// expired.
type ServerTimed interface {
	// Ran gives when the last client command went on the wire and when
	// its whole reply was in: the server ran it in between.
	Ran() (sent, replied time.Time)
	// Expired gives the keys the server has reported expired since the
	// last call, in its order; every report the server made before the
	// call is in. ok is false when the server does not report its own
	// expiries (a replica: its keys go when its master says).
	Expired() (keys []Expiry, ok bool)
}

// timed gives the node's backend as ServerTimed, when the world follows
// its server's clock and the server reports its expiries.
func (w *World) timed(n *Node) (ServerTimed, bool) {
	if w.cfg.Pace == nil {
		return nil, false // embedded Redis: no type to look at
	}
	st, ok := n.b.(ServerTimed)
	return st, ok
}

// virtual gives a moment of the node's server clock in world time.
func (w *World) virtual(n *Node, t time.Time) time.Duration {
	return t.Sub(w.epoch()) - n.offset
}

// ranOn is the exec event's part of a command on a timed server, called
// after the command's reply and before its keys are read: the keys the
// server reported expired by now that the command found gone are logged
// before it; the event's time becomes the earliest moment the server can
// have run the command (sent, or later: after those expiries) and Until
// the latest (its reply was in). It gives the expiries reported now that
// belong after the command, and the keys' states before it.
func (w *World) ranOn(n *Node, st ServerTimed, ev *Event, keys []string) (after []Expiry, before map[string]KeyState) {
	sent, replied := st.Ran()
	lower, upper := w.now, w.now
	if !sent.IsZero() {
		lower = max(lower, w.virtual(n, sent))
		upper = max(lower, w.virtual(n, replied))
	}
	before = map[string]KeyState{}
	for _, k := range keys {
		if ks, ok := n.last[k]; ok {
			before[k] = ks
		}
	}
	reported, _ := st.Expired()
	for _, x := range w.sortExpiries(n, reported) {
		at := w.expiryAt(n, x)
		// the command found it gone if it names it (Redis expires a key it
		// touches past its time) and its time was up before the reply
		_, shown := n.last[x.Key] // not shown: the command made it, and it expired after
		if shown && at <= upper && (slices.Contains(keys, x.Key) || at <= lower) {
			if slices.Contains(keys, x.Key) {
				lower = max(lower, at)
				delete(before, x.Key)
			}
			w.advance(at)
			w.logExpiry(n, x.Key)
			continue
		}
		after = append(after, x)
	}
	w.advance(lower)
	if upper > w.now {
		ev.Until = upper
	}
	return after, before
}

// expiredAfter is the rest of an exec event on a timed server, once its
// keys are read: a key of the command that the server reported expired
// after the command ran (Redis dropped it when its state was read, say)
// shows in the event as it was before, and its expiry follows the event.
func (w *World) expiredAfter(n *Node, st ServerTimed, ev *Event, after []Expiry, before map[string]KeyState) []Expiry {
	reported, _ := st.Expired()
	after = append(after, reported...)
	for _, x := range after {
		for i, ks := range ev.Keys {
			if ks.Key == x.Key && !ks.Exists() {
				if prev, ok := before[x.Key]; ok {
					ev.Keys[i] = prev
					n.last[x.Key] = prev
				} else {
					// the command made it, and it expired before its
					// state could be read: its expiry is still Redis'
					n.last[x.Key] = KeyState{Key: x.Key, TTL: 0}
				}
			}
		}
	}
	return after
}

// logExpiries logs the expiries the server reported, in time order, each
// at its time (or now, if that has passed), for the keys the log still
// shows present.
func (w *World) logExpiries(n *Node, xs []Expiry) {
	for _, x := range w.sortExpiries(n, xs) {
		w.advance(w.expiryAt(n, x))
		w.logExpiry(n, x.Key)
	}
}

// expireReported is the scheduled expiry of key on a timed server: its
// state is read (which makes Redis drop it if its time is up), and the
// expiries the server reported are logged. A key gone with no report was
// removed otherwise, and is not an expiry. A server that reports none (a
// replica) has its keys expire when a read finds them gone.
func (w *World) expireReported(n *Node, st ServerTimed, key string) {
	prev, had := n.last[key]
	n.syncClock()
	ks := n.state(key)
	reported, ok := st.Expired()
	gone := had && !ks.Exists()
	if gone {
		n.last[key] = prev // for logExpiry, if it was reported
	}
	if !ok && gone {
		reported = []Expiry{{Key: key}}
	}
	w.logExpiries(n, reported)
	if !ks.Exists() {
		delete(n.last, key)
	}
}

// sortExpiries orders reported expiries by their time on the node.
func (w *World) sortExpiries(n *Node, xs []Expiry) []Expiry {
	slices.SortStableFunc(xs, func(a, b Expiry) int {
		return int(w.expiryAt(n, a) - w.expiryAt(n, b))
	})
	return xs
}

// expiryAt is when a reported expiry happened, in world time: its time on
// the server, or the time the engine last tracked for the key, or now.
func (w *World) expiryAt(n *Node, x Expiry) time.Duration {
	switch {
	case !x.At.IsZero():
		return w.virtual(n, x.At)
	case n.expiry[x.Key] > 0:
		return n.expiry[x.Key]
	}
	return w.now
}

// logExpiry logs a key's expiry on its node, if the log still shows the
// key present.
func (w *World) logExpiry(n *Node, key string) {
	prev, ok := n.last[key]
	delete(n.expiry, key)
	delete(n.last, key)
	if !ok || !prev.Exists() {
		return
	}
	w.emit(Event{Kind: KindExpire, Node: n.name, Keys: []KeyState{{Key: key, TTL: -2}},
		Fact: w.ranOut(n, key, prev.Owner)})
}

// flatKeys gives the keys of every command of a request.
func flatKeys(args [][]string) []string {
	var out []string
	for _, a := range args {
		out = append(out, keysOf(a)...)
	}
	return out
}
