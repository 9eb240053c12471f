package sim

import (
	"context"
	"fmt"
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
//   - The fault failover kills the master and promotes its replica: the
//     writes still on their way are lost, and from then on every client
//     command for the master's name reaches the replica (as a Sentinel-aware
//     client reconnects to the new master); open connections are re-dialled,
//     so per-connection state (WATCH, a cached script) is gone.
//   - WAIT numreplicas timeout, sent to a master with a replica, is answered
//     by the engine: at once if the replica has applied every write the
//     master had shipped when WAIT arrived, else when it has, or with the
//     count so far (0) when the timeout (ms, 0 = for ever) runs out. If the
//     master dies first the client's connection drops.
//
// Not modelled: replication backlog and partial resync, several replicas
// per master, chained replicas, a replica that falls behind by more than
// its lag, Sentinel's election and its delay, and writes to a replica.
//
// On real servers whose backends are a Replicator (a master and replica
// that package realredis starts for the run), the replication is Redis'
// own: the engine copies nothing, it lets the master's stream reach the
// replica lag after each write (Deliver) and shows the commands the replica
// received; failover kills the master process, drops what the replica had
// not received and promotes it with REPLICAOF NO ONE. WAIT is still
// answered by the engine, from the replica's confirmed offset: a real WAIT
// would block the one command in flight that the stepper waits on.

// KindReplicate is an event kind: a replica applies a write its master made
// lag earlier. Node is the replica; Keys are its keys after the write.
const KindReplicate Kind = "replicate"

// FaultFailover is a fault: Node (a master with a replica) dies and its
// replica is promoted in its place.
const FaultFailover FaultKind = "failover"

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

// waitReq is one WAIT command blocked on a master.
type waitReq struct {
	req    *request
	target int
	timer  *item
}

// Replicate makes replica an asynchronous replica of master, lag behind it.
// The replica starts with a full copy of the master's keys.
func (w *World) Replicate(master, replica string, lag time.Duration) error {
	m, r := w.node(master), w.node(replica)
	switch {
	case m == nil:
		return fmt.Errorf("%w %q (master of %s)", ErrUnknownNode, master, replica)
	case r == nil:
		return fmt.Errorf("%w %q", ErrUnknownNode, replica)
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
		if real, ok := rp.ReplicaLink(r.b); ok {
			return w.replicateReal(l, real)
		}
	}
	l.conn = redis.NewClient(clientOptions(func(context.Context, string, string) (net.Conn, error) { return r.b.Dial() }))
	w.ext.links = append(w.ext.links, l)
	m.syncClock()
	r.syncClock()
	ev := Event{Kind: KindInit, Node: r.name, Note: fmt.Sprintf("replica of %s (lag %s): full sync", m.name, FormatTime(lag))}
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

// replicateReal starts a link on which Redis replicates by itself.
func (w *World) replicateReal(l *link, real ReplicaLink) error {
	m, r := l.master, l.replica
	if err := real.Sync(); err != nil {
		return err
	}
	off, err := real.Offset()
	if err != nil {
		return err
	}
	l.real, l.realOff = real, off
	w.ext.links = append(w.ext.links, l)
	ev := Event{Kind: KindInit, Node: r.name, Note: fmt.Sprintf("replica of %s (lag %s): a redis-server under REPLICAOF, synced by Redis; its stream now waits %s in a relay before it reaches %s",
		m.name, FormatTime(l.lag), FormatTime(l.lag), r.name)}
	for _, k := range m.keys() {
		if st, err := m.b.Read(k); err == nil && st.Type != "" {
			l.shipped[k] = st
			ev.Keys = append(ev.Keys, r.state(k))
		}
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
	what := fmt.Sprintf("%s from %s (the write at #%d, %s ago)", strings.Join(formatCmds(sh.cmds, ""), "; "), l.master.name, sh.write, FormatTime(w.now-sh.at))
	if r.down {
		ev.Note = "lost, " + r.name + " is down: " + what
		w.emit(ev)
		return
	}
	r.syncClock()
	if l.real != nil {
		w.applyReal(l, sh, &ev)
	} else {
		for _, c := range sh.cmds {
			if err := l.do(c); err != nil {
				ev.Note = "failed (" + err.Error() + "): "
				break
			}
		}
		ev.Note += what
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

// applyReal lets Redis' own stream reach the replica up to the write's
// offset, and shows what the replica received and its keys after it.
func (w *World) applyReal(l *link, sh *shipment, ev *Event) {
	r := l.replica
	got, err := l.real.Deliver(sh.target)
	text := formatCmds(got, r.b.Prefix())
	ev.Cmd = flatten(got)
	ev.Note = fmt.Sprintf("%s from %s (the write at #%d, %s ago), as Redis streamed it", strings.Join(text, "; "), l.master.name, sh.write, FormatTime(w.now-sh.at))
	if err != nil {
		ev.Note = "not applied (" + err.Error() + "): " + ev.Note
	}
	for _, k := range sh.keys {
		ev.Keys = append(ev.Keys, r.state(k))
	}
}

// holdWait takes over a WAIT command that reached a master with a replica.
// It reports whether it did.
func (w *World) holdWait(req *request) bool {
	if len(req.args) != 1 || len(req.args[0]) != 3 || req.args[0][0] != "WAIT" {
		return false
	}
	l := w.linkFrom(req.node)
	if l == nil {
		return false
	}
	want, err1 := strconv.Atoi(req.args[0][1])
	ms, err2 := strconv.Atoi(req.args[0][2])
	if err1 != nil || err2 != nil || ms < 0 {
		return false // let the server answer the syntax error
	}
	wr := &waitReq{req: req, target: l.sent}
	if want <= 0 || l.applied >= wr.target {
		w.answerWait(l, wr)
		return true
	}
	l.waits = append(l.waits, wr)
	w.emit(Event{Kind: KindMark, Client: req.th.proc.name, Thread: req.th.name, Node: req.node.name, Name: "wait-blocked",
		Note: fmt.Sprintf("WAIT blocks: %s has applied %d of the %d writes shipped", l.replica.name, l.applied, wr.target)})
	if ms > 0 {
		wr.timer = &item{t: w.now + time.Duration(ms)*time.Millisecond, kind: itemWorld, label: "wait timeout",
			fn: func() { w.answerWait(l, wr) }}
		w.q.push(wr.timer)
	}
	return true
}

// answerWait replies to a WAIT with the number of replicas that have
// applied every write up to it (0 or 1).
func (w *World) answerWait(l *link, wr *waitReq) {
	w.dropWait(l, wr)
	req := wr.req
	n := int64(0)
	note := fmt.Sprintf("timed out: %s has applied %d of %d writes", l.replica.name, l.applied, wr.target)
	if l.applied >= wr.target {
		n, note = 1, fmt.Sprintf("%s has applied every write up to here", l.replica.name)
	}
	if l.real != nil {
		note += " (answered by the engine from the replica's confirmed replication offset)"
	}
	setInt(req.cmds, n)
	req.err = nil
	req.reply = "(integer) " + strconv.FormatInt(n, 10)
	p := req.th.proc
	w.emit(Event{Kind: KindExec, Client: p.name, Thread: req.th.name, Node: req.node.name, Req: req.seq, Sent: req.sent,
		Cmd: flatten(req.args), Reply: req.reply, Note: note})
	w.schedule(req.item(w.now+w.latency(p), itemReply))
}

// dropWait takes a blocked WAIT off its link, and its timeout off the queue.
func (w *World) dropWait(l *link, wr *waitReq) {
	l.waits = slices.DeleteFunc(l.waits, func(x *waitReq) bool { return x == wr })
	if wr.timer != nil {
		w.q.remove(func(it *item) bool { return it == wr.timer })
	}
}

// setInt gives a command answered by the engine its integer result.
func setInt(cmds []redis.Cmder, n int64) {
	for _, c := range cmds {
		switch cmd := c.(type) {
		case *redis.IntCmd:
			cmd.SetVal(n)
		case *redis.Cmd:
			cmd.SetVal(n)
		}
	}
}

// failover kills master n and promotes its replica; ev is the fault event
// to log.
func (w *World) failover(n *Node, ev *Event) error {
	l := w.linkFrom(n)
	switch {
	case l == nil:
		return fmt.Errorf("%w: %s has no replica to promote", ErrBadFault, n.name)
	case n.down:
		return fmt.Errorf("%w: %s is already down", ErrBadFault, n.name)
	case l.replica.down:
		return fmt.Errorf("%w: %s's replica %s is down", ErrBadFault, n.name, l.replica.name)
	}
	n.down = true
	var lost []string
	w.q.remove(func(it *item) bool {
		return slices.ContainsFunc(l.inflight, func(sh *shipment) bool { return it == sh.it })
	})
	if l.real == nil {
		for _, sh := range l.inflight {
			lost = append(lost, formatCmds(sh.cmds, "")...)
		}
	}
	l.inflight = nil
	if l.real != nil {
		dropped, err := l.real.Failover()
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrBadFault, n.name, err)
		}
		lost = append(lost, formatCmds(dropped, l.replica.b.Prefix())...)
	}
	for _, wr := range append([]*waitReq(nil), l.waits...) {
		w.dropWait(l, wr)
		req, p := wr.req, wr.req.th.proc
		req.err = refusedError{n.name}
		req.reply = "(error) connection lost: " + n.name + " died"
		w.emit(Event{Kind: KindLost, Name: "reply", Client: p.name, Thread: req.th.name, Node: n.name, Req: req.seq,
			Sent: req.sent, Cmd: flatten(req.args), Note: n.name + " died while the WAIT was blocked"})
		w.schedule(req.item(w.now+w.latency(p), itemReply))
	}
	if w.ext.routes == nil {
		w.ext.routes = map[*Node]*Node{}
	}
	w.ext.routes[n] = l.replica
	ev.Note = n.name + " dies"
	if l.real != nil {
		ev.Note += " (its redis-server process is killed)"
	}
	if len(lost) > 0 {
		ev.Note += fmt.Sprintf(" before replicating %s (lost)", strings.Join(lost, "; "))
	} else {
		ev.Note += " with every write replicated"
	}
	how := ""
	if l.real != nil {
		how = " with REPLICAOF NO ONE"
	}
	ev.Note += fmt.Sprintf("; %s is promoted%s: clients asking for %s now reach %s", l.replica.name, how, n.name, l.replica.name)
	return nil
}

// route gives the node that serves a node's name now: its promoted
// replica after a failover, else itself.
func (w *World) route(n *Node) *Node {
	if r, ok := w.ext.routes[n]; ok {
		return r
	}
	return n
}

// dialNode opens a client connection for node n. For a master with a
// replica the connection follows a failover: it re-dials the promoted
// replica before its next write.
func (w *World) dialNode(n *Node) (net.Conn, error) {
	at := w.route(n)
	conn, err := at.b.Dial()
	if err != nil || w.linkFrom(n) == nil && at == n {
		return conn, err
	}
	return &routedConn{Conn: conn, w: w, name: n, at: at}, nil
}

// routedConn is a connection to whatever node serves a name.
type routedConn struct {
	net.Conn
	w    *World
	name *Node // the node the client asked for
	at   *Node // the node this connection reaches now
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

// closeLinks closes the engine's connections to replicas.
func (w *World) closeLinks() {
	for _, l := range w.ext.links {
		if l.conn != nil {
			l.conn.Close()
		}
	}
}
