package sim

import (
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

// chunkMax is the most events a chunk of the log holds.
const chunkMax = 256

// emit appends an event to the log, tells the watchers and fires triggers.
// It returns the event's sequence number.
func (w *World) emit(ev Event) int {
	w.seq++
	ev.Seq = w.seq
	ev.Step = w.step
	ev.T = w.now
	if ev.Script == "" && len(ev.Cmd) > 1 && len(w.scripts) > 0 {
		ev.Script = w.scriptName(ev.Cmd)
	}
	if w.cfg.NoLog && w.emitting == 0 {
		// With no log nothing keeps an event once its emit is over (a
		// watcher copies what it needs): an event emitted while no other
		// is being told takes the chunk's first place again, and the chunk
		// holds only the events emitted from inside another's emit (a
		// verdict, a fault a trigger applies) until that one is told.
		w.chunk = w.chunk[:0]
	}
	if len(w.chunk) == cap(w.chunk) {
		// Events live in chunks that never move (the log points into
		// them): the first small, each next twice the last, up to
		// chunkMax. A short run, or one a seek rebuilds, allocates (and
		// the collector scans) little it does not use.
		w.chunk = make([]Event, 0, min(max(2*cap(w.chunk), 16), chunkMax))
	}
	w.chunk = append(w.chunk, ev)
	e := &w.chunk[len(w.chunk)-1]
	if !w.cfg.NoLog {
		w.log = append(w.log, e)
	}
	w.emitting++ // (a watcher that panics leaves it up: chunks are then only made, never used again)
	for _, f := range w.watchers {
		f(e)
	}
	for _, tr := range w.triggers {
		if !tr.fired && tr.match(e) {
			tr.fired = true
			if err := w.Apply(tr.fault); err != nil {
				w.emit(Event{Kind: KindFault, Name: string(tr.fault.Kind), Client: tr.fault.Client, Node: tr.fault.Node,
					Fact: &fact.Fact{Key: fact.NotApplied, Reason: fact.Error(err)}})
			}
		}
	}
	w.emitting--
	return ev.Seq
}

// Emit appends an event made outside the engine (narration, a verdict).
func (w *World) Emit(ev Event) int { return w.emit(ev) }

// Watch calls f for every event from now on, right after it is logged.
// With Config.NoLog the event is f's only during the call, its Cmd and
// Keys slices too: the engine uses their memory again for a later event,
// so f copies what it keeps (a string or a KeyState it copies is its own).
func (w *World) Watch(f func(*Event)) { w.watchers = append(w.watchers, f) }

// On applies fault the first time an event matches.
func (w *World) On(match func(*Event) bool, fault Fault) {
	w.triggers = append(w.triggers, &trigger{match: match, fault: fault})
}

// At applies fault at virtual time t.
func (w *World) At(t time.Duration, fault Fault) {
	w.q.push(&item{t: t, kind: itemWorld, label: string(fault.Kind), timed: true, fn: func() {
		if err := w.Apply(fault); err != nil {
			w.emit(Event{Kind: KindFault, Name: string(fault.Kind), Client: fault.Client, Node: fault.Node,
				Fact: &fact.Fact{Key: fact.NotApplied, Reason: fact.Error(err)}})
		}
	}})
}
