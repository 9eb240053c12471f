package sim

import (
	"context"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Asynchronous replication, failover and WAIT, modelled by the engine
// (catalog row 14). miniredis has no replication, so the world does what a
// Redis master does for its replica, with a lag the scenario chooses:
//
//   - After every command a master executes, the engine compares the state
//     of each key the command named with what it last shipped to the
//     replica. Each change becomes the write that reproduces it (effects
//     replication, as Redis does for scripts: SET key value PXAT t, DEL key,
//     HSET + PEXPIREAT), and it is applied to the replica's own server lag
//     later, over an internal connection, as a "replicate" event.
//   - Expiries are absolute times (PXAT), as Redis 7 propagates them; a
//     replica expires its copy by its own clock (a real replica waits for
//     the master's DEL but already reports the key as gone).
//   - The fault failover promotes the replica (failover.go).
//   - WAIT is answered by the engine (wait.go).
//
// Not modelled: replication backlog and partial resync, several replicas
// per master, chained replicas, a replica that falls behind by more than
// its lag, Sentinel's election and its delay, and writes to a replica.
//
// Real servers replicate by themselves (replica_real.go).

// KindReplicate is an event kind: a replica applies a write its master made
// lag earlier. Node is the replica; Keys are its keys after the write.
const KindReplicate Kind = "replicate"

// link is one master -> replica replication stream.
type link struct {
	master, replica *Node
	lag             time.Duration
	conn            *redis.Client     // the engine's own connection to the replica
	shipped         map[string]Stored // what the replica was last sent, per key
	sent, applied   int               // replication offsets, in writes
	inflight        []*shipment       // shipped, not yet applied
	waits           []*waitReq        // blocked WAIT commands
	real            ReplicaLink       // Redis' own replication, on real servers
	realOff         int64             // the master's offset after the last write shipped
}

// shipment is one write on its way to the replica.
type shipment struct {
	offset int
	cmds   [][]string
	write  int // seq of the master's exec event
	at     time.Duration
	it     *item
	target int64    // real: the master's replication offset after the write
	keys   []string // real: the keys the write named
}

// Replicate makes replica an asynchronous replica of master, lag behind it.
// The replica starts with a full copy of the master's keys.
func (w *World) Replicate(master, replica string, lag time.Duration) error {
	m, r := w.node(master), w.node(replica)
	switch {
	case m == nil:
		return fmt.Errorf("%w %q (master of %s)", ErrUnknownNode, master, replica)
	case r == nil:
		return unknownNode(replica)
	case m == r:
		return fmt.Errorf("sim: %s cannot replicate itself", master)
	case lag < 0:
		return fmt.Errorf("sim: replication lag of %s is negative", replica)
	}
	for _, l := range w.ext.links {
		if l.replica == r || l.replica == m || l.master == m || l.master == r {
			return fmt.Errorf("sim: %s -> %s: one replica per master, no chains", master, replica)
		}
	}
	l := &link{master: m, replica: r, lag: lag, shipped: map[string]Stored{}}
	if rp, ok := m.b.(Replicator); ok {
		if rl, ok := rp.ReplicaLink(r.b); ok {
			return w.replicateReal(l, rl)
		}
	}
	l.conn = redis.NewClient(clientOptions(func(context.Context, string, string) (net.Conn, error) { return r.b.Dial() }))
	w.ext.links = append(w.ext.links, l)
	m.syncClock()
	r.syncClock()
	ev := Event{Kind: KindInit, Node: r.name, Fact: &fact.Fact{Key: fact.ReplicaOf, Node: m.name, For: lag}}
	for _, k := range m.keys() {
		st, err := m.b.Read(k)
		if err != nil || st.Type == "" {
			continue
		}
		for _, c := range effects(k, st) {
			if err := l.do(c); err != nil {
				return err
			}
		}
		l.shipped[k] = st
		ev.Keys = append(ev.Keys, r.state(k))
	}
	w.emit(ev)
	return nil
}

// do runs one write on the replica's server.
func (l *link) do(args []string) error {
	a := make([]any, len(args))
	for i, s := range args {
		a[i] = s
	}
	if pre := l.replica.b.Prefix(); pre != "" && len(args) > 1 {
		a[1] = pre + args[1]
	}
	return l.conn.Do(context.Background(), a...).Err()
}

// effects are the writes that give a replica key k in state st.
func effects(k string, st Stored) [][]string {
	var at []string
	if !st.Expire.IsZero() {
		at = []string{strconv.FormatInt(st.Expire.UnixMilli(), 10)}
	}
	switch st.Type {
	case "":
		return [][]string{{"DEL", k}}
	case "string":
		c := []string{"SET", k, st.Value}
		if at != nil {
			c = append(c, "PXAT", at[0])
		}
		return [][]string{c}
	case "hash":
		h := []string{"HSET", k}
		for _, f := range st.Fields {
			h = append(h, f[0], f[1])
		}
		out := [][]string{{"DEL", k}, h}
		if at != nil {
			out = append(out, []string{"PEXPIREAT", k, at[0]})
		}
		return out
	}
	return nil
}

func sameStored(a, b Stored) bool {
	return a.Type == b.Type && a.Value == b.Value && a.Expire.Equal(b.Expire) && slices.Equal(a.Fields, b.Fields)
}

// formatCmds gives each command's text, with the server's key prefix pre
// taken off its arguments (in place).
func formatCmds(cmds [][]string, pre string) []string {
	text := make([]string, len(cmds))
	for i, c := range cmds {
		if pre != "" {
			for j := range c {
				c[j] = strings.TrimPrefix(c[j], pre)
			}
		}
		text[i] = FormatCmd(c)
	}
	return text
}

// linkFrom is the live replication link of a master, or nil: a master
// that failed over (its name now routed to its replica) has none.
func (w *World) linkFrom(n *Node) *link {
	for _, l := range w.ext.links {
		if l.master == n && w.route(n) == n {
			return l
		}
	}
	return nil
}

// replicate ships the changes a request made on a master to its replica.
func (w *World) replicate(n *Node, req *request) {
	l := w.linkFrom(n)
	if l == nil {
		return
	}
	var keys []string
	for _, a := range req.args {
		for _, k := range keysOf(a) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	var cmds [][]string
	for _, k := range keys {
		st, err := n.b.Read(k)
		if err != nil || sameStored(st, l.shipped[k]) {
			continue
		}
		cmds = append(cmds, effects(k, st)...)
		if st.Type == "" {
			delete(l.shipped, k)
		} else {
			l.shipped[k] = st
		}
	}
	if len(cmds) == 0 {
		return
	}
	var target int64
	if l.real != nil {
		off, err := l.real.Offset()
		if err != nil || off <= l.realOff {
			return
		}
		target, l.realOff = off, off
	}
	l.sent++
	sh := &shipment{offset: l.sent, cmds: cmds, write: w.seq, at: w.now, target: target, keys: keys}
	sh.it = &item{t: w.now + l.lag, kind: itemWorld, label: "replicate " + n.name + " -> " + l.replica.name,
		fn: func() { w.apply(l, sh) }}
	l.inflight = append(l.inflight, sh)
	w.q.push(sh.it)
}

// apply runs a shipment on the replica, lag after the master's write.
func (w *World) apply(l *link, sh *shipment) {
	if len(l.inflight) > 0 && l.inflight[0] == sh {
		l.inflight = l.inflight[1:]
	}
	r := l.replica
	ev := Event{Kind: KindReplicate, Node: r.name, Cmd: flatten(sh.cmds)}
	what := &fact.Fact{Key: fact.Shipped, Cmds: formatCmds(sh.cmds, ""), Node: l.master.name, Write: sh.write, Ago: w.now - sh.at}
	if r.down {
		ev.Fact = &fact.Fact{Key: fact.ShipLost, Replica: r.name, What: what}
		w.emit(ev)
		return
	}
	r.syncClock()
	if l.real != nil {
		w.applyReal(l, sh, &ev)
	} else {
		ev.Fact = what
		for _, c := range sh.cmds {
			if err := l.do(c); err != nil {
				ev.Fact = &fact.Fact{Key: fact.ShipFailed, Reason: fact.Error(err), What: what}
				break
			}
		}
		var keys []string
		for _, c := range sh.cmds {
			if !slices.Contains(keys, c[1]) {
				keys = append(keys, c[1])
				ev.Keys = append(ev.Keys, r.state(c[1]))
			}
		}
	}
	l.applied = sh.offset
	w.emit(ev)
	for _, wr := range append([]*waitReq(nil), l.waits...) {
		if l.applied >= wr.target {
			w.answerWait(l, wr)
		}
	}
}

func (c *routedConn) Write(b []byte) (int, error) {
	if to := c.w.route(c.name); to != c.at {
		conn, err := to.b.Dial()
		if err != nil {
			return 0, err
		}
		c.Conn.Close()
		c.Conn, c.at = conn, to
	}
	return c.Conn.Write(b)
}
