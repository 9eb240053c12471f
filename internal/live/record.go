package live

import (
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/sim"
)

// Recorder is a service run's log: events from many goroutines (the
// clients' programs, their interceptors or proxies, the lock's watcher) put in one
// order, each stamped with the wall clock since the run's start, each
// shown to the checker as it is recorded (its verdicts follow it).
type Recorder struct {
	mu      sync.Mutex
	start   time.Time
	events  []sim.Event
	checker *check.Checker
	closed  bool
	changed chan struct{} // nudged after events are added
}

// NewRecorder starts a log whose time 0 is now, checked by c.
func NewRecorder(c *check.Checker) *Recorder {
	return &Recorder{start: time.Now(), checker: c, changed: make(chan struct{}, 1)}
}

// Changed is nudged after events are added; it holds at most one nudge,
// so a reader reads Events after it and sees everything so far.
func (r *Recorder) Changed() <-chan struct{} { return r.changed }

// nudge tells a reader of Changed that the log grew.
func (r *Recorder) nudge() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Since is the wall-clock time since the run's start.
func (r *Recorder) Since() time.Duration { return time.Since(r.start) }

// Add records e (its Seq and T are the log's) and gives its Seq; after
// Finish it records nothing and gives 0.
func (r *Recorder) Add(e sim.Event) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return 0
	}
	e.T = time.Since(r.start).Round(time.Millisecond)
	if e.Sent > 0 {
		e.Sent = e.Sent.Round(time.Millisecond)
	}
	r.append(&e)
	for _, v := range r.checker.Observe(&r.events[len(r.events)-1]) {
		v.T = e.T
		r.append(&v)
	}
	r.nudge()
	return e.Seq
}

func (r *Recorder) append(e *sim.Event) {
	e.Seq = len(r.events) + 1
	r.events = append(r.events, *e)
}

// Finish closes the log and adds the checker's verdicts at the end.
func (r *Recorder) Finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.closed = true
	t := time.Since(r.start).Round(time.Millisecond)
	for _, v := range r.checker.Finish() {
		v.T = t
		r.append(&v)
	}
	r.nudge()
}

// Abort closes the log without verdicts: the run could not play.
func (r *Recorder) Abort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	r.nudge()
}

// Events gives a copy of the log so far.
func (r *Recorder) Events() []sim.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sim.Event(nil), r.events...)
}

// Verdicts are the checker's verdicts (after Finish: "safe" when none).
func (r *Recorder) Verdicts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.checker.Verdicts()...)
}

// Sections is who came into or left a critical section with event seq.
func (r *Recorder) Sections(seq int) check.SectionChange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.checker.Sections(seq)
}
