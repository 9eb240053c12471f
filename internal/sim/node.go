package sim

import (
	"strconv"
	"strings"
	"time"
)

// Node is one Redis server of the world: a backend (embedded miniredis,
// package embedded, or a real redis-server, package realredis) whose clock is the world's clock plus the
// node's own offset.
type Node struct {
	w      *World
	name   string
	idx    int
	b      Backend
	loser  Loser         // b, when it can stop answering (a real server), else nil
	offset time.Duration // node clock minus world clock
	down   bool
	set    time.Time // last time given to the backend

	expiry map[string]time.Duration // world time at which each key with a TTL expires
	last   map[string]KeyState      // last state seen of each tracked key

	partitioned map[string]bool // client name -> link cut; "*" cuts every client
}

func newNode(w *World, name string, idx int, b Backend) *Node {
	n := &Node{w: w, name: name, idx: idx, b: b, expiry: map[string]time.Duration{},
		last: map[string]KeyState{}, partitioned: map[string]bool{}}
	n.loser, _ = b.(Loser) // asked before every step: the type is looked at once
	n.syncClock()
	return n
}

// Name is the node's name.
func (n *Node) Name() string { return n.name }

// Backend is the server behind the node.
func (n *Node) Backend() Backend { return n.b }

// Now is the node's own clock.
func (n *Node) Now() time.Time { return n.w.epoch().Add(n.w.now + n.offset) }

// syncClock gives the backend the node's current time.
func (n *Node) syncClock() {
	t := n.Now()
	if !t.Equal(n.set) {
		n.b.SetClock(t)
		n.set = t
	}
}

// cut reports whether the link between the node and client is partitioned.
func (n *Node) cut(client string) bool {
	return n.partitioned["*"] || n.partitioned[client]
}

// state reads the state of key after the last command, with the owner
// resolved from the world's tokens, and tracks its expiry.
func (n *Node) state(key string) KeyState {
	ks := KeyState{Key: key, TTL: -2}
	st, err := n.b.Read(key)
	if err != nil {
		return KeyState{Key: key, Type: "error", Value: err.Error(), TTL: -1}
	}
	switch st.Type {
	case "":
		delete(n.expiry, key)
		delete(n.last, key)
		return ks
	case "string":
		ks.Value = st.Value
		ks.Owner = n.w.ownerOf(ks.Value)
	case "hash":
		var b strings.Builder
		for i, f := range st.Fields {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f[0] + "=" + f[1])
			if ks.Owner == "" {
				ks.Owner = n.w.ownerOf(f[0])
			}
		}
		ks.Value = b.String()
	}
	ks.Type = st.Type
	ks.TTL = -1
	if !st.Expire.IsZero() {
		// the expiry in world time: the node's clock runs offset ahead
		at := st.Expire.Sub(n.w.epoch()) - n.offset
		if at < n.w.now {
			at = n.w.now // due now: a real server drops it within its clock's precision
		}
		ks.TTL = int64((at - n.w.now) / time.Millisecond)
		ks.Expire = int64(at / time.Millisecond)
		n.expiry[key] = at
	} else {
		delete(n.expiry, key)
	}
	n.last[key] = ks
	return ks
}

// nextExpiry gives the earliest tracked expiry on the node.
func (n *Node) nextExpiry() (string, time.Duration, bool) {
	var key string
	var at time.Duration
	found := false
	for k, t := range n.expiry {
		if !found || t < at || t == at && k < key {
			key, at, found = k, t, true
		}
	}
	return key, at, found
}

// jump moves the node's clock by d; every key keeps its absolute expiry
// time, so it expires d sooner (later, for a backward jump) in world time.
func (n *Node) jump(d time.Duration) error {
	if err := n.b.JumpClock(d); err != nil {
		return err
	}
	n.offset += d
	for k, t := range n.expiry {
		n.expiry[k] = t - d
	}
	n.syncClock()
	return nil
}

// keys lists every key on the node, sorted.
func (n *Node) keys() []string {
	ks, _ := n.b.Keys()
	return ks
}

// Snapshot gives the state of every key on the node, sorted by key.
func (n *Node) Snapshot() []KeyState {
	n.syncClock()
	var out []KeyState
	for _, k := range n.keys() {
		out = append(out, n.state(k))
	}
	return out
}

// keysOf gives the keys a command touches, in argument order. For the
// commands with their keys side by side (most) it is a part of args.
func keysOf(args []string) []string {
	r := keyPositions(args)
	if r.step == 1 {
		return args[r.from:r.to]
	}
	var ks []string
	for i := r.from; i < r.to; i += r.step {
		ks = append(ks, args[i])
	}
	return ks
}

// keyRange is where a command's keys are among its arguments: every
// step-th one from from up to to (exclusive).
type keyRange struct{ from, to, step int }

// keyPositions gives the arguments of a command that are keys: what a
// backend's prefix goes before. args[0] is the command's name in upper
// case (cmdArgs).
func keyPositions(args []string) keyRange {
	none := keyRange{1, 1, 1}
	if len(args) < 2 {
		return none
	}
	switch args[0] {
	case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL":
		if len(args) < 3 {
			return none
		}
		n, err := strconv.Atoi(args[2])
		if err != nil || n < 0 || 3+n > len(args) {
			return none
		}
		return keyRange{3, 3 + n, 1}
	case "DEL", "UNLINK", "EXISTS", "MGET", "WATCH", "TOUCH":
		return keyRange{1, len(args), 1}
	case "MSET", "MSETNX":
		return keyRange{1, len(args), 2}
	case "MULTI", "EXEC", "DISCARD", "UNWATCH", "PING", "TIME", "SCRIPT", "CLIENT",
		"HELLO", "INFO", "SELECT", "FLUSHALL", "FLUSHDB", "DBSIZE", "WAIT", "ECHO", "CONFIG",
		"AUTH", "QUIT", "RESET", "ROLE", "REPLICAOF", "SLAVEOF", "WAITAOF", "COMMAND":
		return none
	}
	return keyRange{1, 2, 1}
}
