package sim

import (
	"time"

	"github.com/lockstep/lockstep/internal/fact"
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
		return refuse(&fact.Fact{Key: fact.UnknownKind, Item: string(f.Kind)})
	}
	h := &hit{Fault: f}
	if f.Client != "" || spec.NeedsClient() {
		if h.p = w.proc(f.Client); h.p == nil {
			return unknownClient(f.Client)
		}
	}
	if f.Node != "" || spec.NeedsNode() {
		if h.n = w.node(f.Node); h.n == nil {
			return unknownNode(f.Node)
		}
	}
	if spec.Required && (spec.Amount == AmountDuration && f.For <= 0 || spec.Amount == AmountJump && f.By == 0) {
		return refuse(&fact.Fact{Key: fact.NeedsAmount, Item: spec.Do, Value: spec.Amount.Field(), Text: spec.Hint})
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
		return refuse(&fact.Fact{Key: fact.AlreadyCrashed, Client: p.name})
	}
	p.crashed = true
	p.paused = false
	p.held = nil
	w.q.remove(func(it *item) bool { return it.clientSide() && it.th.proc == p })
	h.ev.Fact = &fact.Fact{Key: fact.Crashed, Client: p.name, For: max(h.For, 0)}
	if h.For > 0 {
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
		return refuse(&fact.Fact{Key: fact.IsRunning, Client: p.name})
	}
	if w.running != nil && w.running.proc == p {
		return refuse(&fact.Fact{Key: fact.RestartsItself, Client: p.name})
	}
	w.reap()
	p.incarnation++
	h.ev.Fact = &fact.Fact{Key: fact.StartsAgain, Client: p.name, Incarnation: p.incarnation + 1}
	w.emit(h.ev)
	w.boot(p, w.now)
	return nil
}

// pause stops a client's world for For: its moves are held until the
// pause ends (a longer pause extends it; a shorter one changes nothing).
func (w *World) pause(h *hit) error {
	p := h.p
	if p.crashed {
		return refuse(&fact.Fact{Key: fact.HasCrashed, Client: p.name})
	}
	until := w.now + h.For
	if p.paused && until <= p.pausedUntil {
		return nil
	}
	if !p.paused {
		p.held = append(p.held, w.q.remove(func(it *item) bool { return it.clientSide() && it.th.proc == p })...)
	}
	p.paused, p.pausedUntil = true, until
	h.ev.Fact = &fact.Fact{Key: fact.Paused, Client: p.name, For: h.For}
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
	m, said := h.p.dropReq, fact.NextRequestLost
	if h.Kind == FaultDropReply {
		m, said = h.p.dropReply, fact.NextReplyLost
	}
	m[key]++
	h.ev.Fact = &fact.Fact{Key: said, Client: h.p.name}
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
	h.ev.Fact = &fact.Fact{Key: fact.CutOff, Node: n.name, Client: h.Client, For: max(h.For, 0)}
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
	h.ev.Fact = &fact.Fact{Key: fact.Reachable, Node: h.n.name}
	w.emit(h.ev)
	return nil
}

// nodeCrash takes a node down; with For > 0 it restarts after For (with
// its keys if KeepData).
func (w *World) nodeCrash(h *hit) error {
	n := h.n
	if n.down {
		return refuse(&fact.Fact{Key: fact.AlreadyDown, Node: n.name})
	}
	n.down = true
	h.ev.Fact = &fact.Fact{Key: fact.Down, Node: n.name, For: max(h.For, 0)}
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
		return refuse(&fact.Fact{Key: fact.NotDown, Node: n.name})
	}
	n.down = false
	n.syncClock()
	if h.KeepData {
		h.ev.Fact = &fact.Fact{Key: fact.BackWithData, Node: n.name}
		for _, k := range n.keys() {
			n.state(k)
		}
	} else {
		if err := n.b.Flush(); err != nil {
			return refuseFor(&fact.Fact{Key: fact.NodeFailed, Node: n.name, Reason: fact.Error(err)}, err)
		}
		clear(n.expiry)
		clear(n.last)
		h.ev.Fact = &fact.Fact{Key: fact.BackEmpty, Node: n.name}
	}
	h.ev.Keys = n.Snapshot()
	w.emit(h.ev)
	return nil
}

// clockJump moves a node's clock by By (negative: back).
func (w *World) clockJump(h *hit) error {
	if err := h.n.jump(h.By); err != nil {
		return refuseFor(&fact.Fact{Key: fact.ClockCannotJump, Node: h.n.name, Reason: fact.Error(err)}, err)
	}
	h.ev.Fact = &fact.Fact{Key: fact.ClockJumps, Node: h.n.name, By: h.By}
	w.emit(h.ev)
	return nil
}

// skew sets a client's clock to run By ahead of the world's.
func (w *World) skew(h *hit) error {
	h.p.skew = h.By
	h.ev.Fact = &fact.Fact{Key: fact.ClockAhead, Client: h.p.name, By: h.By}
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
	w.emit(Event{Kind: KindFault, Name: ResumeEvent, Client: p.name, Fact: &fact.Fact{Key: fact.RunsAgain, Client: p.name}})
	for _, it := range held {
		if it.t < w.now {
			it.t = w.now
		}
		w.q.push(it)
	}
}

// FaultError is a fault the engine refuses (it changes nothing): it is
// ErrBadFault, and it states why as a fact. Cause is the error behind
// it, if any (a real server's ErrUnavailable, say): errors.Is sees it.
type FaultError struct {
	Why   *fact.Fact
	Cause error
}

func (e *FaultError) Unwrap() error { return e.Cause }

func (e *FaultError) Error() string        { return e.Fact().Render().En }
func (e *FaultError) Is(target error) bool { return target == ErrBadFault }

// Fact is the refusal: "sim: bad fault: " and why.
func (e *FaultError) Fact() *fact.Fact { return &fact.Fact{Key: fact.BadFault, Reason: e.Why} }

// refuse is the error of a fault refused for why.
func refuse(why *fact.Fact) error { return &FaultError{Why: why} }

// Refuse is the error of a fault refused for why, outside the engine (a
// user's action the session refuses): ErrBadFault, stating why.
func Refuse(why *fact.Fact) error { return refuse(why) }

// refuseFor is the error of a fault refused for why, because of cause.
func refuseFor(why *fact.Fact, cause error) error { return &FaultError{Why: why, Cause: cause} }

// nameError is a client or a node the world does not have: it is
// ErrUnknownClient or ErrUnknownNode, and states its fact.
type nameError struct {
	is   error
	said *fact.Fact
}

func (e *nameError) Error() string        { return e.said.Render().En }
func (e *nameError) Is(target error) bool { return target == e.is }
func (e *nameError) Fact() *fact.Fact     { return e.said }

func unknownClient(name string) error {
	return &nameError{ErrUnknownClient, &fact.Fact{Key: fact.UnknownClient, Client: name}}
}

func unknownNode(name string) error {
	return &nameError{ErrUnknownNode, &fact.Fact{Key: fact.UnknownNode, Node: name}}
}
