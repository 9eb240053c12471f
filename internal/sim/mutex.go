package sim

import (
	"context"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
)

// Mutex is an in-process lock shared by the threads of one process (a JVM's
// synchronized block or ReentrantLock, say): it serializes that process's
// threads and nobody else's. Lock parks the calling thread until the mutex
// is free; waiters get it in arrival order. Each step is logged as a mark
// (local-wait, local-lock, local-unlock) so the timeline shows it.
//
// A Mutex belongs to one incarnation of its process: make it in the
// process's program, so that a restart starts with a fresh one.
type Mutex struct {
	p       *Proc
	name    string
	holder  *thread
	waiters []*thread
}

// NewMutex makes a free mutex of process p.
func NewMutex(p *Proc, name string) *Mutex { return &Mutex{p: p, name: name} }

// Lock takes the mutex, parking the calling thread while another thread of
// the process holds it.
func (m *Mutex) Lock(ctx context.Context) error {
	w := m.p.w
	th := w.current(m.p)
	th.live()
	if m.holder == th {
		return fmt.Errorf("sim: thread %s locks %s twice", th.name, m.name)
	}
	if m.holder != nil {
		m.waiters = append(m.waiters, th)
		w.emit(Event{Kind: KindMark, Client: m.p.name, Thread: th.name, Name: "local-wait",
			Fact: &fact.Fact{Key: fact.LocalMutexHeldBy, Holder: m.holder.name}})
		for m.holder != th {
			th.park()
		}
	}
	m.holder = th
	th.live()
	w.emit(Event{Kind: KindMark, Client: m.p.name, Thread: th.name, Name: "local-lock", Fact: fact.New(fact.LocalMutex)})
	return ctx.Err()
}

// Unlock frees the mutex and hands it to the longest-waiting thread, which
// runs next at the current virtual time.
func (m *Mutex) Unlock() {
	w := m.p.w
	th := w.current(m.p)
	th.live()
	if m.holder != th {
		panic(fmt.Sprintf("sim: thread %s unlocks %s, which it does not hold", th.name, m.name))
	}
	m.holder = nil
	w.emit(Event{Kind: KindMark, Client: m.p.name, Thread: th.name, Name: "local-unlock", Fact: fact.New(fact.LocalMutex)})
	if len(m.waiters) > 0 {
		next := m.waiters[0]
		m.waiters = m.waiters[1:]
		m.holder = next
		w.schedule(&item{t: w.now, kind: itemWake, th: next})
	}
}

// Semaphore hands out n permits to the threads of one process (a thread
// pool's worker slots, say); Acquire parks while none is free, waiters are
// served in arrival order. It logs nothing: its users mark what matters.
type Semaphore struct {
	p       *Proc
	free    int
	waiters []*thread
	granted map[*thread]bool
}

// NewSemaphore makes a semaphore of process p with n permits.
func NewSemaphore(p *Proc, n int) *Semaphore {
	return &Semaphore{p: p, free: n, granted: map[*thread]bool{}}
}

// Acquire takes a permit, parking the calling thread until one is free.
func (s *Semaphore) Acquire(ctx context.Context) error {
	w := s.p.w
	th := w.current(s.p)
	th.live()
	if s.free > 0 && len(s.waiters) == 0 {
		s.free--
		return ctx.Err()
	}
	s.waiters = append(s.waiters, th)
	for !s.granted[th] {
		th.park()
	}
	delete(s.granted, th)
	th.live()
	return ctx.Err()
}

// Release gives a permit back, to the longest-waiting thread if any.
func (s *Semaphore) Release() {
	w := s.p.w
	w.current(s.p).live()
	if len(s.waiters) == 0 {
		s.free++
		return
	}
	next := s.waiters[0]
	s.waiters = s.waiters[1:]
	s.granted[next] = true
	w.schedule(&item{t: w.now, kind: itemWake, th: next})
}
