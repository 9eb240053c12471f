package sim

import (
	"fmt"
	"time"
)

// FaultKind names one fault of the menu.
type FaultKind string

// The fault menu.
const (
	FaultCrash       FaultKind = "crash"        // Client dies; with For > 0 it restarts after For
	FaultRestart     FaultKind = "restart"      // a crashed Client starts its program again
	FaultPause       FaultKind = "pause"        // Client stops the world for For (GC, VM freeze)
	FaultDropRequest FaultKind = "drop-request" // the next request of Client (to Node, or any) is lost
	FaultDropReply   FaultKind = "drop-reply"   // the next reply to Client (from Node, or any) is lost
	FaultPartition   FaultKind = "partition"    // Node is cut off from Client (or from all); For > 0 heals
	FaultHeal        FaultKind = "heal"         // the partition of Node (from Client, or all) ends
	FaultNodeCrash   FaultKind = "node-crash"   // Node goes down; For > 0 restarts it (KeepData keeps keys)
	FaultNodeRestart FaultKind = "node-restart" // Node comes back, with its keys only if KeepData
	FaultClockJump   FaultKind = "clock-jump"   // Node's clock jumps by By (negative: back)
	FaultSkew        FaultKind = "skew"         // Client's clock is set to run By ahead of the world's
)

// Fault is one fault to apply.
type Fault struct {
	Kind     FaultKind
	Client   string
	Node     string
	For      time.Duration
	By       time.Duration
	KeepData bool
}

// Known reports whether k is on the fault menu (a fault row of Actions).
func (k FaultKind) Known() bool {
	_, ok := k.Spec()
	return ok
}

// Apply applies a fault now and logs it: it resolves the fault's targets
// and checks its amount by its row of Actions, then does what its kind
// does (one method per kind, below).
func (w *World) Apply(f Fault) error {
	spec, ok := f.Kind.Spec()
	if !ok {
		return fmt.Errorf("%w: unknown kind %q", ErrBadFault, f.Kind)
	}
	h := &hit{Fault: f}
	if f.Client != "" || spec.NeedsClient() {
		if h.p = w.proc(f.Client); h.p == nil {
			return fmt.Errorf("%w %q", ErrUnknownClient, f.Client)
		}
	}
	if f.Node != "" || spec.NeedsNode() {
		if h.n = w.node(f.Node); h.n == nil {
			return fmt.Errorf("%w %q", ErrUnknownNode, f.Node)
		}
	}
	if spec.Required && (spec.Amount == AmountDuration && f.For <= 0 || spec.Amount == AmountJump && f.By == 0) {
		return fmt.Errorf("%w: %s", ErrBadFault, spec.NeedsAmount())
	}
	h.ev = Event{Kind: KindFault, Name: string(f.Kind), Client: f.Client, Node: f.Node}
	switch f.Kind {
	case FaultCrash:
		return w.crash(h)
	case FaultRestart:
		return w.restart(h)
	case FaultPause:
		return w.pause(h)
	case FaultDropRequest, FaultDropReply:
		return w.drop(h)
	case FaultPartition:
		return w.partition(h)
	case FaultHeal:
		return w.heal(h)
	case FaultNodeCrash:
		return w.nodeCrash(h)
	case FaultNodeRestart:
		return w.nodeRestart(h)
	case FaultClockJump:
		return w.clockJump(h)
	case FaultFailover:
		return w.failover(h)
	case FaultSkew:
		return w.skew(h)
	}
	panic("sim: fault kind " + string(f.Kind) + " is in Actions but World.Apply has no case for it")
}

// hit is one fault being applied: the fault, its targets resolved (p for
// its client, n for its node, nil when it names none), and the event that
// logs it.
type hit struct {
	Fault
	p  *Proc
	n  *Node
	ev Event
}

// crash kills a client: its queued moves are dropped, and with For > 0 it
// restarts after For.
func (w *World) crash(h *hit) error {
	p := h.p
	if p.crashed {
		return fmt.Errorf("%w: %s has already crashed", ErrBadFault, p.name)
	}
	p.crashed = true
	p.paused = false
	p.held = nil
	w.q.remove(func(it *item) bool { return it.clientSide() && it.th.proc == p })
	h.ev.Note = p.name + " crashed"
	if h.For > 0 {
		h.ev.Note += fmt.Sprintf(", restarts in %s", FormatTime(h.For))
		w.q.push(&item{t: w.now + h.For, kind: itemWorld, label: "restart", fn: func() {
			_ = w.Apply(Fault{Kind: FaultRestart, Client: p.name})
		}})
	}
	w.emit(h.ev)
	if w.running == nil {
		w.reap()
	}
	return nil
}

// restart starts a crashed client's program again, as a new incarnation.
func (w *World) restart(h *hit) error {
	p := h.p
	if !p.crashed {
		return fmt.Errorf("%w: %s is running", ErrBadFault, p.name)
	}
	if w.running != nil && w.running.proc == p {
		return fmt.Errorf("%w: %s cannot restart itself", ErrBadFault, p.name)
	}
	w.reap()
	p.incarnation++
	h.ev.Note = fmt.Sprintf("%s starts again (incarnation %d)", p.name, p.incarnation+1)
	w.emit(h.ev)
	w.boot(p, w.now)
	return nil
}

// pause stops a client's world for For: its moves are held until the
// pause ends (a longer pause extends it; a shorter one changes nothing).
func (w *World) pause(h *hit) error {
	p := h.p
	if p.crashed {
		return fmt.Errorf("%w: %s has crashed", ErrBadFault, p.name)
	}
	until := w.now + h.For
	if p.paused && until <= p.pausedUntil {
		return nil
	}
	if !p.paused {
		p.held = append(p.held, w.q.remove(func(it *item) bool { return it.clientSide() && it.th.proc == p })...)
	}
	p.paused, p.pausedUntil = true, until
	h.ev.Note = fmt.Sprintf("%s stops the world for %s", p.name, FormatTime(h.For))
	w.emit(h.ev)
	w.q.push(&item{t: until, kind: itemWorld, label: "resume", fn: func() { w.resume(p, until) }})
	return nil
}

// drop loses a client's next request or reply (to or from Node, or any).
func (w *World) drop(h *hit) error {
	key := "*"
	if h.n != nil {
		key = h.n.name
	}
	m, what := h.p.dropReq, "request"
	if h.Kind == FaultDropReply {
		m, what = h.p.dropReply, "reply"
	}
	m[key]++
	h.ev.Note = fmt.Sprintf("the next %s of %s will be lost", what, h.p.name)
	w.emit(h.ev)
	return nil
}

// partition cuts a node off from a client (or from every client); with
// For > 0 the link heals after For.
func (w *World) partition(h *hit) error {
	n, who := h.n, "*"
	if h.p != nil {
		who = h.p.name
	}
	n.partitioned[who] = true
	h.ev.Note = n.name + " is cut off from " + map[bool]string{true: "every client", false: who}[who == "*"]
	if h.For > 0 {
		client := h.Client
		w.q.push(&item{t: w.now + h.For, kind: itemWorld, label: "heal", fn: func() {
			_ = w.Apply(Fault{Kind: FaultHeal, Node: n.name, Client: client})
		}})
	}
	w.emit(h.ev)
	return nil
}

// heal ends a node's partition from a client (or every partition of it).
func (w *World) heal(h *hit) error {
	if h.p != nil {
		delete(h.n.partitioned, h.p.name)
	} else {
		clear(h.n.partitioned)
	}
	h.ev.Note = h.n.name + " is reachable again"
	w.emit(h.ev)
	return nil
}

// nodeCrash takes a node down; with For > 0 it restarts after For (with
// its keys if KeepData).
func (w *World) nodeCrash(h *hit) error {
	n := h.n
	if n.down {
		return fmt.Errorf("%w: %s is already down", ErrBadFault, n.name)
	}
	n.down = true
	h.ev.Note = n.name + " is down"
	if h.For > 0 {
		keep := h.KeepData
		w.q.push(&item{t: w.now + h.For, kind: itemWorld, label: "node-restart", fn: func() {
			_ = w.Apply(Fault{Kind: FaultNodeRestart, Node: n.name, KeepData: keep})
		}})
	}
	w.emit(h.ev)
	return nil
}

// nodeRestart brings a node back: with its keys if KeepData, else empty
// (no persistence).
func (w *World) nodeRestart(h *hit) error {
	n := h.n
	if !n.down {
		return fmt.Errorf("%w: %s is not down", ErrBadFault, n.name)
	}
	n.down = false
	n.syncClock()
	if h.KeepData {
		h.ev.Note = n.name + " is back with its data"
		for _, k := range n.keys() {
			n.state(k)
		}
	} else {
		if err := n.b.Flush(); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrBadFault, n.name, err)
		}
		clear(n.expiry)
		clear(n.last)
		h.ev.Note = n.name + " is back, empty (no persistence)"
	}
	h.ev.Keys = n.Snapshot()
	w.emit(h.ev)
	return nil
}

// clockJump moves a node's clock by By (negative: back).
func (w *World) clockJump(h *hit) error {
	if err := h.n.jump(h.By); err != nil {
		return fmt.Errorf("%w: %s's clock cannot jump: %w", ErrBadFault, h.n.name, err)
	}
	h.ev.Note = fmt.Sprintf("%s's clock jumps by %s", h.n.name, FormatTime(h.By))
	w.emit(h.ev)
	return nil
}

// skew sets a client's clock to run By ahead of the world's.
func (w *World) skew(h *hit) error {
	h.p.skew = h.By
	h.ev.Note = fmt.Sprintf("%s's clock now runs %s ahead", h.p.name, FormatTime(h.By))
	w.emit(h.ev)
	return nil
}

// resume ends a pause that was to end at until.
func (w *World) resume(p *Proc, until time.Duration) {
	if !p.paused || p.pausedUntil != until || p.crashed {
		return
	}
	p.paused = false
	held := p.held
	p.held = nil
	w.emit(Event{Kind: KindFault, Name: "resume", Client: p.name, Note: p.name + " runs again"})
	for _, it := range held {
		if it.t < w.now {
			it.t = w.now
		}
		w.q.push(it)
	}
}
