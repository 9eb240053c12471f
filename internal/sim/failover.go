package sim

import (
	"github.com/lockstep/lockstep/internal/fact"
	"net"
	"slices"
)

// The fault failover kills the master and promotes its replica: the
// writes still on their way are lost, and from then on every client
// command for the master's name reaches the replica (as a Sentinel-aware
// client reconnects to the new master); open connections are re-dialled,
// so per-connection state (WATCH, a cached script) is gone.
//
// Here: that fault, and the routing of a master's name to the node that
// serves it now.

// FaultFailover is a fault: Node (a master with a replica) dies and its
// replica is promoted in its place.
const FaultFailover FaultKind = "failover"

// failover kills master h.n and promotes its replica, and logs it.
func (w *World) failover(h *hit) error {
	if err := w.promote(h.n, &h.ev); err != nil {
		return err
	}
	w.emit(h.ev)
	return nil
}

// promote kills master n and promotes its replica; ev is the fault event
// to log, whose note it writes.
func (w *World) promote(n *Node, ev *Event) error {
	l := w.linkFrom(n)
	switch {
	case l == nil:
		return refuse(&fact.Fact{Key: fact.NoReplica, Node: n.name})
	case n.down:
		return refuse(&fact.Fact{Key: fact.AlreadyDown, Node: n.name})
	case l.replica.down:
		return refuse(&fact.Fact{Key: fact.ReplicaDown, Node: n.name, Replica: l.replica.name})
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
			return refuseFor(&fact.Fact{Key: fact.NodeFailed, Node: n.name, Reason: fact.Error(err)}, err)
		}
		lost = append(lost, formatCmds(dropped, l.replica.b.Prefix())...)
	}
	for _, wr := range append([]*waitReq(nil), l.waits...) {
		w.dropWait(l, wr)
		req, p := wr.req, wr.req.th.proc
		req.err = refusedError{n.name}
		req.reply = "(error) connection lost: " + n.name + " died"
		req.answer = errorAnswer(req.reply[len("(error) "):])
		w.emit(Event{Kind: KindLost, Name: "reply", Client: p.name, Thread: req.th.name, Node: n.name, Req: req.seq,
			Sent: req.sent, Cmd: flatten(req.args), Fact: &fact.Fact{Key: fact.WaitDied, Node: n.name}})
		w.schedule(req.item(w.now+w.latency(p), itemReply))
	}
	if w.ext.routes == nil {
		w.ext.routes = map[*Node]*Node{}
	}
	w.ext.routes[n] = l.replica
	ev.Fact = &fact.Fact{Key: fact.FailedOver, Node: n.name, Replica: l.replica.name, Cmds: lost, Real: l.real != nil}
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

// closeLinks closes the engine's connections to replicas.
func (w *World) closeLinks() {
	for _, l := range w.ext.links {
		if l.conn != nil {
			l.conn.Close()
		}
	}
}
