package sim

import (
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Node is one simulated Redis server: an embedded miniredis whose clock is
// the world's clock plus the node's own offset.
type Node struct {
	w      *World
	name   string
	idx    int
	m      *miniredis.Miniredis
	offset time.Duration // node clock minus world clock
	down   bool
	set    time.Time // last time given to miniredis

	expiry map[string]time.Duration // world time at which each key with a TTL expires
	last   map[string]KeyState      // last state seen of each tracked key

	partitioned map[string]bool // client name -> link cut; "*" cuts every client
}

func newNode(w *World, name string, idx int) *Node {
	m := miniredis.NewMiniRedis()
	m.Seed(int(w.cfg.Seed))
	n := &Node{w: w, name: name, idx: idx, m: m, expiry: map[string]time.Duration{},
		last: map[string]KeyState{}, partitioned: map[string]bool{}}
	n.syncClock()
	m.ClockTTL(true)
	return n
}

// Name is the node's name.
func (n *Node) Name() string { return n.name }

// Miniredis gives the embedded server, for setup and tests.
func (n *Node) Miniredis() *miniredis.Miniredis { return n.m }

// Now is the node's own clock.
func (n *Node) Now() time.Time { return n.w.cfg.Epoch.Add(n.w.now + n.offset) }

// syncClock gives miniredis the node's current time.
func (n *Node) syncClock() {
	t := n.Now()
	if !t.Equal(n.set) {
		n.m.SetTime(t)
		n.set = t
	}
}

func (n *Node) dial() (net.Conn, error) { return n.m.Dial() }

// cut reports whether the link between the node and client is partitioned.
func (n *Node) cut(client string) bool {
	return n.partitioned["*"] || n.partitioned[client]
}

// state reads the state of key after the last command, with the owner
// resolved from the world's tokens, and tracks its expiry.
func (n *Node) state(key string) KeyState {
	ks := KeyState{Key: key, TTL: -2}
	switch typ := n.m.Type(key); typ {
	case "":
		delete(n.expiry, key)
		delete(n.last, key)
		return ks
	case "string":
		ks.Type = typ
		ks.Value, _ = n.m.Get(key)
		ks.Owner = n.w.ownerOf(ks.Value)
	case "hash":
		ks.Type = typ
		fields, _ := n.m.HKeys(key)
		var b strings.Builder
		for i, f := range fields {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f + "=" + n.m.HGet(key, f))
			if ks.Owner == "" {
				ks.Owner = n.w.ownerOf(f)
			}
		}
		ks.Value = b.String()
	default:
		ks.Type = typ
	}
	ks.TTL = -1
	if ttl := n.m.TTL(key); ttl > 0 {
		ks.TTL = ttl.Milliseconds()
		at := n.w.now + ttl
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

// jump moves the node's clock by d. Embedded Redis keeps TTLs as remaining
// durations, so a backward jump gives every key back the time, as a real
// server's absolute expiry times would.
func (n *Node) jump(d time.Duration) {
	if d < 0 {
		for k := range n.expiry {
			n.m.SetTTL(k, n.m.TTL(k)-d)
		}
	}
	n.offset += d
	for k, t := range n.expiry {
		n.expiry[k] = t - d
	}
	n.syncClock()
}

// keys lists every key on the node, sorted.
func (n *Node) keys() []string {
	ks := n.m.Keys()
	sort.Strings(ks)
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

// keysOf gives the keys a command touches, in argument order.
func keysOf(args []string) []string {
	if len(args) < 2 {
		return nil
	}
	switch strings.ToUpper(args[0]) {
	case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL":
		if len(args) < 3 {
			return nil
		}
		n, err := strconv.Atoi(args[2])
		if err != nil || n < 0 || 3+n > len(args) {
			return nil
		}
		return args[3 : 3+n]
	case "DEL", "UNLINK", "EXISTS", "MGET", "WATCH", "TOUCH":
		return args[1:]
	case "MSET", "MSETNX":
		var ks []string
		for i := 1; i < len(args); i += 2 {
			ks = append(ks, args[i])
		}
		return ks
	case "MULTI", "EXEC", "DISCARD", "UNWATCH", "PING", "TIME", "SCRIPT", "CLIENT",
		"HELLO", "INFO", "SELECT", "FLUSHALL", "FLUSHDB", "DBSIZE", "WAIT", "ECHO", "CONFIG":
		return nil
	}
	return args[1:2]
}
