package check

// The model as others read it: the narration tells the story from the
// same picture of the run the rules judge (one model, not two).

import (
	"slices"
	"sort"

	"github.com/lockstep/lockstep/internal/sim"
)

// Holder is a client thread that holds a key, as the model holds it: the
// thread whose command wrote the key's value, in one incarnation of its
// client (a restarted client is a new incarnation).
type Holder struct {
	Client      string // A
	Thread      string // main, req2, ...
	Incarnation int    // the client's crashes before this thread started
	Since       int    // seq of the event that gave it the key
}

// Who is the holder as the log writes it: A, or A/req2.
func (h Holder) Who() string { return h.thread().who() }

func (h Holder) thread() thread { return thread{client: h.Client, inc: h.Incarnation, name: h.Thread} }

// Change is what one event did to one key, as the model holds it: who
// held it before the event and who after, and whether a client's command
// made it disappear (Removed, By whose thread).
type Change struct {
	Node, Key string
	Lock      string // the lock the key stands for (sim.LockOfKey)
	IsLock    bool   // the key is a lock's (its lock is a scenario's resource, or a mark named it)
	Before    []Holder
	After     []Holder
	Existed   bool // the key existed before the event
	Exists    bool // it exists after
	Removed   bool // a client's command made it disappear
	By        Holder
	Moved     bool // its value or existence changed
}

// Changes is what the last event the checker observed did to the keys it
// showed (and, for a node that restarted, to the keys it lost).
func (c *Checker) Changes() []Change { return c.model.exported(c.last) }

// exported turns the model's changes of one event into Changes.
func (m *model) exported(chs []change) []Change {
	out := make([]Change, 0, len(chs))
	for _, ch := range chs {
		s := ch.slot
		out = append(out, Change{Node: s.node, Key: s.key, Lock: s.lock, IsLock: m.locks[s.lock],
			Before: holders(ch.before), After: holders(s.holders), Existed: ch.existed, Exists: s.present(),
			Removed: ch.removed, By: holderOf(ch.by, 0), Moved: ch.moved})
	}
	return out
}

func holders(hs []holder) []Holder {
	if len(hs) == 0 {
		return nil
	}
	out := make([]Holder, len(hs))
	for i, h := range hs {
		out[i] = holderOf(h.th, h.since)
	}
	return out
}

func holderOf(t thread, since int) Holder {
	return Holder{Client: t.client, Thread: t.name, Incarnation: t.inc, Since: since}
}

// View is the checker's model of the run at the event it last observed,
// for reading: who is inside which critical section, who holds which key
// on which node, what each thread believes, which nodes are down. The
// narration tells the story from it, and a lesson checks its scripted
// lines' claims against it.
type View struct{ m *model }

// View gives the model as it stands.
func (c *Checker) View() View { return View{c.model} }

// Insider is a thread inside a critical section, since its enter mark.
type Insider struct {
	Who  string // A, or A/req2
	Lock string
	Seq  int // its enter mark
}

// Insiders lists the threads inside a critical section, in order of entry.
func (v View) Insiders() []Insider {
	var out []Insider
	for l, ins := range v.m.inside {
		for _, in := range ins {
			out = append(out, Insider{Who: in.th.who(), Lock: l, Seq: in.seq})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// Inside reports whether a client (any of its threads), or one thread
// (A/req2), is inside a critical section.
func (v View) Inside(who string) bool {
	for _, in := range v.Insiders() {
		if in.Who == who || clientOf(in.Who) == who {
			return true
		}
	}
	return false
}

// EverTogether reports whether two different clients have been inside a
// critical section at the same time so far.
func (v View) EverTogether() bool { return v.m.together }

// IsLock reports whether a lock name is a lock's (a scenario's resource,
// or one a mark has named), not data.
func (v View) IsLock(l string) bool { return v.m.locks[l] }

// Key is what the model knows of a key on a node: its state as the events
// last showed it and who holds it; ok is false when the key does not exist.
func (v View) Key(node, key string) (sim.KeyState, []Holder, bool) {
	s := v.m.keys[node+"\x00"+key]
	if !s.present() {
		return sim.KeyState{}, nil, false
	}
	return s.state, holders(s.holders), true
}

// Held lists the keys that exist and have holders, by node then key, with
// their holders.
func (v View) Held() []Change {
	var out []Change
	for _, s := range v.m.slots() {
		if s.present() && len(s.holders) > 0 {
			out = append(out, Change{Node: s.node, Key: s.key, Lock: s.lock, IsLock: v.m.locks[s.lock],
				Before: holders(s.holders), After: holders(s.holders), Existed: true, Exists: true})
		}
	}
	return out
}

// HeldOn is on how many serving nodes the current incarnation of client
// holds lock l, and how many it needs to hold the lock (its quorum).
func (v View) HeldOn(client, l string) (on, need int) {
	inc := v.m.inc[client]
	for _, s := range v.m.keys {
		if s.lock != l || !s.present() || !v.m.serving(s.node) {
			continue
		}
		if slices.ContainsFunc(s.holders, func(h holder) bool { return h.th.client == client && h.th.inc == inc }) {
			on++
		}
	}
	return on, v.m.quorum(client, l)
}

// HeldOnBy is on how many serving nodes one thread (A, A/req2) of the
// current incarnation of its client holds lock l.
func (v View) HeldOnBy(who, l string) int {
	on := 0
	for _, s := range v.m.keys {
		if s.lock != l || !s.present() || !v.m.serving(s.node) {
			continue
		}
		if slices.ContainsFunc(s.holders, func(h holder) bool { return h.th.who() == who && h.th.inc == v.m.inc[h.th.client] }) {
			on++
		}
	}
	return on
}

// Believes reports whether a thread of the current incarnation of client
// believes it holds lock l (it marked acquired more often than released).
func (v View) Believes(client, l string) bool {
	for t, d := range v.m.depth {
		if t.client == client && t.inc == v.m.inc[client] && d[l] > 0 && v.m.alive(t) {
			return true
		}
	}
	return false
}

// Locks lists the locks a thread of the current incarnation of client
// believes it holds, sorted.
func (v View) Locks(client string) []string {
	var out []string
	for t, d := range v.m.depth {
		if t.client != client || t.inc != v.m.inc[client] || !v.m.alive(t) {
			continue
		}
		for l, n := range d {
			if n > 0 && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Down reports whether a node has crashed and not come back.
func (v View) Down(node string) bool { return v.m.down[node] }

// Serving reports whether a node's keys count for the locks (it was not
// retired by a failover, and is no replica of a master still in service).
func (v View) Serving(node string) bool { return v.m.serving(node) }

// clientOf is the client part of who (A of A/req2).
func clientOf(who string) string {
	for i := 0; i < len(who); i++ {
		if who[i] == '/' {
			return who[:i]
		}
	}
	return who
}
