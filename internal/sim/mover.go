package sim

import (
	"time"
)

// Mover is the client whose move the last step made: the client whose
// code ran, whose request reached its node or whose reply (or timeout)
// came back. It is "" after a step of the world's own (a key expiry, a
// timed fault, a resume, replication) and before the first step. A
// comparison of two runs under one schedule (internal/compare) reads it
// to learn the order in which the clients moved.
func (w *World) Mover() string {
	if w.mover == nil {
		return ""
	}
	return w.mover.proc.name
}

// NextWorld is when the world's own next step is due: the earliest key
// expiry or world action (a timed fault, a resume, a restart, a heal,
// replication, a WAIT timeout), never a client's move. ok is false when
// none is pending or the run is over.
func (w *World) NextWorld() (at time.Duration, ok bool) {
	if w.ended || w.closed {
		return 0, false
	}
	it := w.nextWorldItem()
	_, _, exp, hasExp := w.nextExpiry()
	switch {
	case it == nil && !hasExp:
		return 0, false
	case it == nil || hasExp && exp <= it.t+w.guard():
		return exp, true
	}
	return it.t, true
}

// StepWorld takes the world's own next step (the one NextWorld names) now,
// whatever client moves are due before it, as one engine step. It returns
// false when there is none or the run is over.
func (w *World) StepWorld() bool {
	if w.ended || w.closed {
		return false
	}
	it := w.nextWorldItem()
	n, key, exp, hasExp := w.nextExpiry()
	if it == nil && !hasExp || !w.begin() {
		return false
	}
	if hasExp && (it == nil || exp <= it.t+w.guard()) {
		w.expireAt(n, key, exp)
		return true
	}
	w.q.remove(func(x *item) bool { return x == it })
	w.advance(w.pace(it.t))
	w.process(it)
	w.sameInstant(it)
	return true
}

// nextWorldItem is the earliest pending item that is no client's move
// (ties: the scenario's timed faults first, then the first pushed).
func (w *World) nextWorldItem() *item {
	it := w.q.earliest(func(it *item) bool { return it.th == nil })
	if it != nil && !it.timed {
		if f := w.q.earliest(func(x *item) bool { return x.timed && x.t == it.t }); f != nil {
			return f
		}
	}
	return it
}

// MoverThread is the thread of the Mover whose move the last step made
// ("main" for a client's own code, "req2" for its second request,
// "main#3" for the third of the helpers main asks its servers with at
// once...).
func (w *World) MoverThread() string {
	if w.mover == nil {
		return ""
	}
	return w.mover.moveID()
}

// ThreadMove is when a client thread's next move is due. ok is false when
// it has none pending (or the run is over).
func (w *World) ThreadMove(client, thread string) (at time.Duration, ok bool) {
	if it := w.threadItem(client, thread); it != nil && !w.ended && !w.closed {
		return it.t, true
	}
	return 0, false
}

// StepThread lets one thread of a client make its next move now, as
// StepClient does for the client's earliest. It returns false if the
// thread has nothing pending.
func (w *World) StepThread(client, thread string) (bool, error) {
	if w.proc(client) == nil {
		return false, unknownClient(client)
	}
	if w.ended || w.closed {
		return false, nil
	}
	return w.stepItem(w.threadItem(client, thread)), nil
}

// threadItem is a client thread's earliest pending item.
func (w *World) threadItem(client, thread string) *item {
	return w.q.earliest(func(it *item) bool {
		return it.th != nil && it.th.proc.name == client && it.th.moveID() == thread
	})
}
