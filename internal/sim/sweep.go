package sim

import (
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

// Sweeper is a service with a cleanup job of its own: the SQL database of
// the MySQL lesson deletes its old lock rows (package sqldb).
type Sweeper interface {
	// Sweep removes what is older than age at now (the world's wall
	// clock) and says what it removed.
	Sweep(now time.Time, age time.Duration, ownerOf func(string) string) (Swept, error)
}

// Swept is what one run of a cleanup job removed.
type Swept struct {
	Gone []KeyState // the last state of each thing removed, in order
	Cmd  []string   // the job's command, as its event shows it
	What *fact.Fact // what it removed ("the rows older than 10s ...")
}

// Sweep runs the cleanup job of a service that has one (a Sweeper) every
// period, removing what is older than age (seed 004: "if an unlock fails,
// a timer clears the failed records every few seconds"). The job belongs
// to the service (a scheduled event, an ops cron), not to any client: its
// deletions are logged as expiries, as Redis logs a key's TTL running out.
func (w *World) Sweep(service string, every, age time.Duration) error {
	s := w.service(service)
	if s == nil {
		return unknownNode(service)
	}
	job, ok := s.h.(Sweeper)
	if !ok {
		return fmt.Errorf("sim: service %s has no cleanup job", service)
	}
	if every <= 0 || age <= 0 {
		return fmt.Errorf("sim: a sweep needs a positive period and age")
	}
	var tick func(at time.Duration)
	tick = func(at time.Duration) {
		w.q.push(&item{t: at, kind: itemWorld, label: "sweep " + service, fn: func() {
			w.sweep(service, job, age)
			tick(at + every)
		}})
	}
	tick(w.now + every)
	return nil
}

// sweep runs a cleanup job once and logs what it removed, if anything.
func (w *World) sweep(service string, job Sweeper, age time.Duration) {
	out, err := job.Sweep(w.epoch().Add(w.now), age, w.ownerOf)
	switch {
	case err != nil:
		w.emit(Event{Kind: KindExpire, Node: service, Fact: &fact.Fact{Key: fact.CleanupFailed, Reason: fact.Error(err)}})
	case len(out.Gone) > 0:
		said := &fact.Fact{Key: fact.Cleanup, What: out.What}
		keys := make([]KeyState, len(out.Gone))
		for i, k := range out.Gone {
			keys[i] = KeyState{Key: k.Key, TTL: -2}
			if k.Owner != "" {
				said.Holders = append(said.Holders, k.Owner)
			}
		}
		w.emit(Event{Kind: KindExpire, Node: service, Cmd: out.Cmd, Keys: keys, Fact: said})
	}
}
