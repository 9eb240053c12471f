package narrate

import (
	"slices"
	"sort"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// Model is the state of a run as its events tell it, event by event. The
// zero value is not ready: use NewModel.
type Model struct {
	inside   map[string]int                     // who (client, or client/thread) -> seq of its enter mark
	keys     map[string]map[string]sim.KeyState // node -> key -> state after the last event that showed it
	together bool                               // two clients were inside at once at some point
	dead     map[string]bool                    // clients crashed and not restarted
	down     map[string]bool                    // nodes crashed (or failed over) and not restarted
	locks    map[string]bool                    // locks the marks have named so far
	writers  map[string]map[string]string       // node -> key -> client whose command wrote its value no token names
}

// NewModel is the state of a run before its first event.
func NewModel() *Model {
	return &Model{inside: map[string]int{}, keys: map[string]map[string]sim.KeyState{}, dead: map[string]bool{}, down: map[string]bool{},
		locks: map[string]bool{}, writers: map[string]map[string]string{}}
}

// client is the client part of who (A of A/t1).
func client(who string) string {
	c, _, _ := strings.Cut(who, "/")
	return c
}

// Inside reports whether a client (any of its threads) is inside its
// critical section: it marked enter and has not yet marked leave, nor
// crashed.
func (m *Model) Inside(name string) bool {
	for who := range m.inside {
		if who == name || client(who) == name {
			return true
		}
	}
	return false
}

// Insiders lists who is inside, in the order they entered.
func (m *Model) Insiders() []string {
	out := make([]string, 0, len(m.inside))
	for who := range m.inside {
		out = append(out, who)
	}
	sort.Slice(out, func(i, j int) bool { return m.inside[out[i]] < m.inside[out[j]] })
	return out
}

// EverTogether reports whether two different clients have been inside
// their critical sections at the same time so far.
func (m *Model) EverTogether() bool { return m.together }

// Key is the state of key on node as the events last showed it; ok is
// false when the key does not exist (or never did).
func (m *Model) Key(node, key string) (sim.KeyState, bool) {
	k, ok := m.keys[node][key]
	return k, ok && k.Exists()
}

// Down reports whether a node has crashed (or died in a failover) and not
// come back.
func (m *Model) Down(node string) bool { return m.down[node] }

// Owner is the client whose value key holds on node, or "" when the key is
// gone or holds nobody's value.
func (m *Model) Owner(node, key string) string {
	k, ok := m.Key(node, key)
	if !ok {
		return ""
	}
	return k.Owner
}

// sameOwnerFields reports whether a key still holds the same owner's
// value: the same string, or a hash with the same fields (its counts may
// move with re-entries).
func sameOwnerFields(a, b sim.KeyState) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type != "hash" {
		return a.Value == b.Value
	}
	fields := func(v string) []string {
		var out []string
		for _, fv := range strings.Fields(v) {
			f, _, _ := strings.Cut(fv, "=")
			out = append(out, f)
		}
		return out
	}
	return slices.Equal(fields(a.Value), fields(b.Value))
}

// observe updates the state with one event and returns the key states it
// replaced (before the event), for the story.
func (m *Model) observe(e *sim.Event) map[string]sim.KeyState {
	switch e.Kind {
	case sim.KindMark:
		m.learnLock(e.Lock)
		switch e.Name {
		case "enter":
			for who := range m.inside {
				if client(who) != e.Client {
					m.together = true
				}
			}
			m.inside[e.Who()] = e.Seq
		case "leave":
			delete(m.inside, e.Who())
		}
	case sim.KindFault:
		switch sim.FaultKind(e.Name) {
		case sim.FaultCrash:
			m.dead[e.Client] = true
			for who := range m.inside {
				if client(who) == e.Client {
					delete(m.inside, who)
				}
			}
		case sim.FaultRestart:
			delete(m.dead, e.Client)
		case sim.FaultNodeCrash, sim.FaultFailover:
			if e.Applied() {
				m.down[e.Node] = true
			}
		case sim.FaultNodeRestart:
			if e.Applied() {
				delete(m.down, e.Node)
				m.keys[e.Node] = map[string]sim.KeyState{} // the keys it kept, if any, follow
			}
		}
	case sim.KindStart:
		delete(m.dead, e.Client)
	}
	if len(e.Keys) == 0 || e.Node == "" {
		return nil
	}
	switch e.Kind {
	case sim.KindInit, sim.KindExec, sim.KindExpire, sim.KindReplicate, sim.KindFault:
	default:
		return nil
	}
	keys := m.keys[e.Node]
	if keys == nil {
		keys = map[string]sim.KeyState{}
		m.keys[e.Node] = keys
	}
	before := map[string]sim.KeyState{}
	for _, k := range e.Keys {
		old, had := keys[k.Key]
		if had {
			before[k.Key] = old
		}
		if k.Owner == "" && k.Exists() {
			k.Owner = m.writer(e, k, old, had)
		}
		keys[k.Key] = k
	}
	return before
}

// writer is the owner of a key's value that no token names (a bare thread
// id, say), as the checker holds it: the client whose command wrote it,
// kept while the value keeps its owner's fields. Only a lock's key has an
// owner: the stock, a token counter or the storage's file are data, and a
// key written before a mark named its lock gets its owner then (learnLock).
func (m *Model) writer(e *sim.Event, k, old sim.KeyState, had bool) string {
	if had && old.Owner != "" && sameOwnerFields(old, k) {
		return old.Owner
	}
	ws := m.writers[e.Node]
	if ws == nil {
		ws = map[string]string{}
		m.writers[e.Node] = ws
	}
	switch {
	case had && old.Exists() && sameOwnerFields(old, k):
	case e.Kind == sim.KindExec && e.Client != "" && sim.Writes(e.Cmd):
		ws[k.Key] = e.Client
	default:
		delete(ws, k.Key)
	}
	if !m.locks[sim.LockOfKey(k.Key)] {
		return ""
	}
	return ws[k.Key]
}

// learnLock notes a lock a mark names; the keys of that lock already
// written get their writers as owners.
func (m *Model) learnLock(l string) {
	if l == "" || m.locks[l] {
		return
	}
	m.locks[l] = true
	for node, keys := range m.keys {
		for key, k := range keys {
			if w := m.writers[node][key]; w != "" && k.Owner == "" && k.Exists() && sim.LockOfKey(key) == l {
				k.Owner = w
				keys[key] = k
			}
		}
	}
}
