package check

import (
	"sort"

	"github.com/lockstep/lockstep/internal/sim"
)

// holding is who holds a lock key now: the owner its value resolves to and
// the event at which that owner got it.
type holding struct {
	key   string // node/key
	name  string // the key's name
	owner string
	since int // seq of the event that first showed this owner
	state sim.KeyState
}

// holders tracks, from the key states events carry, which keys hold an
// owner's value. Expiry, deletion or a value of nobody's ends a holding.
type holders map[string]*holding

func (h holders) observe(e *sim.Event) {
	for _, k := range e.Keys {
		id := e.Node + "/" + k.Key
		if !k.Exists() || k.Owner == "" {
			delete(h, id)
			continue
		}
		if cur, ok := h[id]; ok && cur.owner == k.Owner {
			cur.state = k
			continue
		}
		h[id] = &holding{key: id, name: k.Key, owner: k.Owner, since: e.Seq, state: k}
	}
}

// sorted lists the holdings by key.
// owner is the client holding lock key id ("node/key"), or "".
func (h holders) owner(id string) string {
	if x, ok := h[id]; ok {
		return x.owner
	}
	return ""
}

func (h holders) sorted() []*holding {
	out := make([]*holding, 0, len(h))
	for _, v := range h {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// blockedBy reports the keys of e that, after e, hold someone else's lock:
// e is then a client's attempt that found the lock taken.
func blockedBy(e *sim.Event) []sim.KeyState {
	if e.Kind != sim.KindExec || e.Client == "" {
		return nil
	}
	var out []sim.KeyState
	for _, k := range e.Keys {
		if k.Exists() && k.Owner != "" && k.Owner != e.Client {
			out = append(out, k)
		}
	}
	return out
}
