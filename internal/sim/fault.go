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

// Apply applies a fault now and logs it.
func (w *World) Apply(f Fault) error {
	spec, ok := f.Kind.Spec()
	if !ok {
		return fmt.Errorf("%w: unknown kind %q", ErrBadFault, f.Kind)
	}
	needC, needN := spec.NeedsClient(), spec.NeedsNode()
	var p *Proc
	var n *Node
	if f.Client != "" || needC {
		if p = w.proc(f.Client); p == nil {
			return fmt.Errorf("%w %q", ErrUnknownClient, f.Client)
		}
	}
	if f.Node != "" || needN {
		if n = w.node(f.Node); n == nil {
			return fmt.Errorf("%w %q", ErrUnknownNode, f.Node)
		}
	}
	if spec.Required && (spec.Amount == AmountDuration && f.For <= 0 || spec.Amount == AmountJump && f.By == 0) {
		return fmt.Errorf("%w: %s", ErrBadFault, spec.NeedsAmount())
	}
	ev := Event{Kind: KindFault, Name: string(f.Kind), Client: f.Client, Node: f.Node}
	switch f.Kind {
	case FaultCrash:
		if p.crashed {
			return fmt.Errorf("%w: %s has already crashed", ErrBadFault, p.name)
		}
		p.crashed = true
		p.paused = false
		p.held = nil
		w.q.remove(func(it *item) bool { return it.clientSide() && it.th.proc == p })
		ev.Note = p.name + " crashed"
		if f.For > 0 {
			ev.Note += fmt.Sprintf(", restarts in %s", FormatTime(f.For))
			w.q.push(&item{t: w.now + f.For, kind: itemWorld, label: "restart", fn: func() {
				_ = w.Apply(Fault{Kind: FaultRestart, Client: p.name})
			}})
		}
		w.emit(ev)
		if w.running == nil {
			w.reap()
		}
		return nil
	case FaultRestart:
		if !p.crashed {
			return fmt.Errorf("%w: %s is running", ErrBadFault, p.name)
		}
		if w.running != nil && w.running.proc == p {
			return fmt.Errorf("%w: %s cannot restart itself", ErrBadFault, p.name)
		}
		w.reap()
		p.incarnation++
		ev.Note = fmt.Sprintf("%s starts again (incarnation %d)", p.name, p.incarnation+1)
		w.emit(ev)
		w.boot(p, w.now)
		return nil
	case FaultPause:
		if p.crashed {
			return fmt.Errorf("%w: %s has crashed", ErrBadFault, p.name)
		}
		until := w.now + f.For
		if p.paused && until <= p.pausedUntil {
			return nil
		}
		if !p.paused {
			p.held = append(p.held, w.q.remove(func(it *item) bool { return it.clientSide() && it.th.proc == p })...)
		}
		p.paused, p.pausedUntil = true, until
		ev.Note = fmt.Sprintf("%s stops the world for %s", p.name, FormatTime(f.For))
		w.emit(ev)
		w.q.push(&item{t: until, kind: itemWorld, label: "resume", fn: func() { w.resume(p, until) }})
		return nil
	case FaultDropRequest, FaultDropReply:
		key := "*"
		if n != nil {
			key = n.name
		}
		m := p.dropReq
		what := "request"
		if f.Kind == FaultDropReply {
			m, what = p.dropReply, "reply"
		}
		m[key]++
		ev.Note = fmt.Sprintf("the next %s of %s will be lost", what, p.name)
	case FaultPartition:
		who := "*"
		if p != nil {
			who = p.name
		}
		n.partitioned[who] = true
		ev.Note = n.name + " is cut off from " + map[bool]string{true: "every client", false: who}[who == "*"]
		if f.For > 0 {
			w.q.push(&item{t: w.now + f.For, kind: itemWorld, label: "heal", fn: func() {
				_ = w.Apply(Fault{Kind: FaultHeal, Node: n.name, Client: f.Client})
			}})
		}
	case FaultHeal:
		if p != nil {
			delete(n.partitioned, p.name)
		} else {
			clear(n.partitioned)
		}
		ev.Note = n.name + " is reachable again"
	case FaultNodeCrash:
		if n.down {
			return fmt.Errorf("%w: %s is already down", ErrBadFault, n.name)
		}
		n.down = true
		ev.Note = n.name + " is down"
		if f.For > 0 {
			keep := f.KeepData
			w.q.push(&item{t: w.now + f.For, kind: itemWorld, label: "node-restart", fn: func() {
				_ = w.Apply(Fault{Kind: FaultNodeRestart, Node: n.name, KeepData: keep})
			}})
		}
	case FaultNodeRestart:
		if !n.down {
			return fmt.Errorf("%w: %s is not down", ErrBadFault, n.name)
		}
		n.down = false
		n.syncClock()
		if f.KeepData {
			ev.Note = n.name + " is back with its data"
			for _, k := range n.keys() {
				n.state(k)
			}
		} else {
			if err := n.b.Flush(); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrBadFault, n.name, err)
			}
			clear(n.expiry)
			clear(n.last)
			ev.Note = n.name + " is back, empty (no persistence)"
		}
		ev.Keys = n.Snapshot()
	case FaultClockJump:
		if err := n.jump(f.By); err != nil {
			return fmt.Errorf("%w: %s's clock cannot jump: %w", ErrBadFault, n.name, err)
		}
		ev.Note = fmt.Sprintf("%s's clock jumps by %s", n.name, FormatTime(f.By))
	case FaultFailover:
		if err := w.failover(n, &ev); err != nil {
			return err
		}
	case FaultSkew:
		p.skew = f.By
		ev.Note = fmt.Sprintf("%s's clock now runs %s ahead", p.name, FormatTime(f.By))
	}
	w.emit(ev)
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
