package sim

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

// Step takes the next step: the earliest pending event (ties broken by the
// seeded random source), or a key expiry due before it. It returns false
// when the run is over.
func (w *World) Step() bool {
	if !w.begin() {
		return false
	}
	it := w.q.peek()
	n, key, at, ok := w.soon.n, w.soon.key, w.soon.at, w.soon.n != nil // begin's look, nothing changed since
	var due time.Duration
	if it != nil {
		due = it.t
		if !ok || at > due+w.guard() {
			due = w.pace(it.t) // a real server's clock: may be later than planned
		}
	}
	if ok && (it == nil || at <= due+w.guard()) {
		w.expireAt(n, key, at)
		return true
	}
	if it == nil {
		w.finish()
		return false
	}
	w.advance(due)
	it = w.popTie()
	w.process(it)
	w.sameInstant(it)
	return true
}

// sameInstant applies, after a timed fault it, the other timed faults due
// at its instant, in the order they were set: the faults of one instant
// apply together, in one step.
//
// A request's item (never timed) may have been made again by now, for its
// thread's next command (roundTrip): only timed items are looked at.
func (w *World) sameInstant(it *item) {
	for it.timed {
		next := w.q.earliest(func(x *item) bool { return x.timed && x.t == it.t })
		if next == nil {
			return
		}
		w.q.remove(func(x *item) bool { return x == next })
		w.process(next)
	}
}

// expireAt is a step that logs a key's expiry due at virtual time at: the
// world waits for the outside clock to reach it, and the key expires at
// its time on the server's clock, however late the engine sees it.
func (w *World) expireAt(n *Node, key string, at time.Duration) {
	w.pace(at)
	w.advance(at)
	w.expire(n, key)
}

// guard is how long before a key's expiry a command lets the expiry go
// first: the precision of a real server's clock, 0 for embedded Redis.
func (w *World) guard() time.Duration {
	if w.cfg.Pace == nil {
		return 0
	}
	return w.cfg.Pace.Precision()
}

// epoch is the wall-clock moment of virtual time 0: the pacer's when a
// real server's clock paces the world.
func (w *World) epoch() time.Time {
	if w.cfg.Pace != nil {
		return w.cfg.Pace.Epoch()
	}
	return w.cfg.Epoch
}

// pace waits for the outside clock (a real server's) to reach virtual time
// t and gives the virtual time it is then. Without a pacer it gives t.
func (w *World) pace(t time.Duration) time.Duration {
	if t < w.now {
		t = w.now
	}
	if w.cfg.Pace == nil {
		return t
	}
	if got := w.cfg.Pace.Wait(t); got > t {
		return got
	}
	return t
}

// StepClient lets one client make its next move now, whatever else is
// pending ("you are the scheduler"). Expiries due by then come first. It
// returns false if the client has nothing pending.
func (w *World) StepClient(name string) (bool, error) {
	p := w.proc(name)
	if p == nil {
		return false, unknownClient(name)
	}
	if w.ended || w.closed {
		return false, nil
	}
	return w.stepItem(w.q.earliest(func(it *item) bool { return it.th != nil && it.th.proc == p })), nil
}

// stepItem makes one client move now (StepClient, StepThread): expiries
// and the scenario's timed faults due by then come first, in time order (an
// expiry before a fault due at the same time, as in Step). It returns
// false if found is nil or the run is over.
func (w *World) stepItem(found *item) bool {
	if found == nil {
		return false
	}
	if !w.begin() {
		return false
	}
	w.q.remove(func(it *item) bool { return it == found })
	at := w.pace(found.t)
	for {
		n, key, t, ok := w.nextExpiry()
		f := w.q.earliest(func(x *item) bool { return x.timed && x.t <= at })
		switch {
		case ok && t <= at+w.guard() && (f == nil || t <= f.t):
			w.advance(t)
			w.expire(n, key)
			continue
		case f != nil:
			w.q.remove(func(x *item) bool { return x == f })
			w.advance(f.t)
			w.process(f)
			continue
		}
		break
	}
	w.advance(at)
	w.process(found)
	return true
}

// Pending lists the clients that have a move to make, in client order.
func (w *World) Pending() []string {
	var out []string
	for _, p := range w.procs {
		for _, it := range w.q.items {
			if it.th != nil && it.th.proc == p {
				out = append(out, p.name)
				break
			}
		}
	}
	return out
}

// Idle reports whether nothing is left to happen: no move scheduled and no
// key due to expire, so that the next Step only ends the run.
func (w *World) Idle() bool {
	if w.ended || w.closed {
		return false
	}
	_, _, _, ok := w.nextExpiry()
	return w.q.peek() == nil && !ok
}

// begin counts a step, or ends the run at its caps.
func (w *World) begin() bool {
	if w.ended || w.closed {
		return false
	}
	if w.step >= w.cfg.MaxSteps {
		w.capped = true
		w.finish()
		return false
	}
	if w.checkLost() {
		return false
	}
	next := time.Duration(-1)
	if it := w.q.peek(); it != nil {
		next = it.t
	}
	n, key, at, ok := w.nextExpiry()
	w.soon.n, w.soon.key, w.soon.at = n, key, at
	if ok && (next < 0 || at < next) {
		next = at
	}
	if next > w.cfg.Horizon {
		w.advance(w.cfg.Horizon)
		w.finish()
		return false
	}
	w.step++
	w.mover = nil
	return true
}

func (w *World) finish() { w.ended = true }

// checkLost ends the run, with an error event, when a node's server has
// stopped answering (Loser). It reports whether it did.
func (w *World) checkLost() bool {
	for _, n := range w.nodes {
		if n.loser == nil || n.down { // a node down in the run is not asked anything
			continue
		}
		if err := n.loser.Lost(); err != nil {
			w.lost = fmt.Errorf("node %s: %w", n.name, err)
			w.emit(Event{Kind: KindError, Node: n.name, Name: "server-lost",
				Fact: &fact.Fact{Key: fact.ServerLost, Reason: fact.Error(err)}})
			w.finish()
			return true
		}
	}
	return false
}

// Lost is why the run ended early because a node's real server stopped
// answering (see Loser), or nil.
func (w *World) Lost() error { return w.lost }

// Capped reports whether the run was stopped by its step cap
// (Config.MaxSteps) rather than ending by itself or at its horizon.
func (w *World) Capped() bool { return w.capped }

// advance moves the virtual clock forward to t (never back).
func (w *World) advance(t time.Duration) {
	if t > w.now {
		w.now = t
	}
}

// popTie pops one of the items due at the earliest time: the faults the
// scenario set at that time first, in the order they were set (its file
// order: a world action at t precedes the clients' moves at t); else one
// chosen by the seeded random source when there are several.
func (w *World) popTie() *item {
	first := w.q.pop()
	if w.q.len() == 0 || w.q.peek().t != first.t {
		return first
	}
	ties := []*item{first}
	for w.q.len() > 0 && w.q.peek().t == first.t {
		ties = append(ties, w.q.pop())
	}
	pick := -1
	for i, it := range ties {
		if it.timed && (pick < 0 || it.order < ties[pick].order) {
			pick = i
		}
	}
	if pick < 0 {
		pick = w.rng.IntN(len(ties))
	}
	for i, it := range ties {
		if i != pick {
			w.q.repush(it)
		}
	}
	return ties[pick]
}

// process carries out one item.
func (w *World) process(it *item) {
	if it.th != nil {
		w.mover = it.th
	}
	switch it.kind {
	case itemStart:
		th := it.th
		if !th.helper {
			w.emit(Event{Kind: KindStart, Client: th.proc.name, Thread: th.name})
		}
		w.run(th)
	case itemWake:
		w.run(it.th)
	case itemExec:
		w.exec(it)
	case itemReply, itemTimeout:
		w.deliver(it)
	case itemWorld:
		it.fn()
	}
}

// afterExec is the place for per-node bookkeeping after a command.
func (w *World) afterExec(n *Node, req *request) { w.replicate(n, req) }

func (w *World) proc(name string) *Proc {
	for _, p := range w.procs {
		if p.name == name {
			return p
		}
	}
	return nil
}

// ownerOf resolves a value (or hash field) to the client whose token it
// holds: the whole value, or its part before the last ':'.
func (w *World) ownerOf(v string) string {
	if c, ok := w.tokens[v]; ok {
		return c
	}
	for i := len(v) - 1; i > 0; i-- {
		if v[i] == ':' {
			if c, ok := w.tokens[v[:i]]; ok {
				return c
			}
		}
	}
	return ""
}

// Run steps until the run is over.
func (w *World) Run() {
	for w.Step() {
	}
}

// Close ends every thread and releases the nodes. A closed world takes no
// more steps.
func (w *World) Close() {
	if w.closed {
		return
	}
	w.closed = true
	for _, p := range w.procs {
		p.crashed = true
		for _, th := range p.threads {
			th.unwind()
		}
		for _, c := range p.clients {
			if c != nil {
				c.Close()
			}
		}
	}
	w.closeLinks()
	w.closeServices()
	for _, n := range w.nodes {
		n.b.Close()
	}
}
