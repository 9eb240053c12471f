package server

import (
	"errors"
	"io"
	"math"
	"net"
	"syscall"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
)

// capSteps refuses to take a session past its cap of steps.
func (s *session) capSteps(n int) error {
	if n > s.srv.limits.MaxSteps {
		return coded("step-cap", map[string]any{"max": s.srv.limits.MaxSteps}, "the session reached its cap of %d steps", s.srv.limits.MaxSteps)
	}
	return nil
}

// seek moves the cursor to step n: backwards it rebuilds the world, then
// replays in slices.
func (s *session) seek(n int) error {
	n = max(n, 0) // back at step 0 stays there
	if err := s.capSteps(n); err != nil {
		return err
	}
	return seekIn(s, s.ls, n)
}

// seekIn moves ls (the session's world, or one being loaded) to step n in
// slices, holding it to the budgets as it goes.
func seekIn(s *session, ls *lesson.Session, n int) error {
	if n < ls.Cursor() {
		var err error
		if !s.hold.bulkTurnUnless(s.quit, func() { err = ls.Seek(0) }) {
			return errEnded()
		}
		if err != nil {
			return err
		}
	}
	return s.stepsOf(ls, true, func() (bool, error) {
		if ls.Cursor() >= n {
			return false, nil
		}
		return ls.Step()
	})
}

// steps runs step on the session's world until it returns false or an
// error, in slices (see sliceSteps), checking the budgets after each slice.
// Work of a few steps (n at most shortSteps) is short work in every slice;
// more is long work from the start (see bulkTurn).
func (s *session) steps(n int, step func() (bool, error)) error {
	return s.stepsOf(s.ls, n > shortSteps, step)
}

// stepsOf runs step on ls as steps does, in slices of at least one step.
// Long work holds a bulk slot for every slice. Short work holds an engine
// slot only, in every slice: a slice of it after the first (its first ran
// past sliceTime: on a busy machine its goroutine can be off the CPU for a
// few milliseconds) once took a bulk slot as well, and waited there behind
// every session's long work queued for it (up to 1.6 s in the storm,
// docs/performance.md). It stops between slices when the session ends,
// and long work queued for its bulk slot stops there at once: a server
// shutting down runs no more slices of it (issue 36).
func (s *session) stepsOf(ls *lesson.Session, long bool, step func() (bool, error)) error {
	for {
		select {
		case <-s.quit:
			return errEnded()
		default:
		}
		more, err := true, error(nil)
		slice := func() {
			start := time.Now()
			for i := 1; ; i++ {
				if more, err = step(); err != nil || !more {
					return
				}
				if i >= sliceSteps || time.Since(start) >= s.srv.slice {
					return
				}
			}
		}
		if !long {
			s.turn(slice)
		} else if !s.hold.bulkTurnUnless(s.quit, slice) {
			return errEnded()
		}
		if err != nil {
			return err
		}
		if err := lost(ls); err != nil {
			return err
		}
		if ls == s.ls {
			if err := s.account(); err != nil {
				return err
			}
		} else if c := cost(ls); c > s.srv.limits.MaxSessionMemory {
			return coded("memory-run", map[string]any{"step": ls.Cursor(), "need": mib(c), "max": mib(s.srv.limits.MaxSessionMemory)},
				"the run stopped at step %d: it holds about %s, over a session's memory budget of %s",
				ls.Cursor(), mib(c), mib(s.srv.limits.MaxSessionMemory))
		}
		if !more {
			return nil
		}
	}
}

// errEnded answers work a session's end stopped (an eviction, a shutdown).
func errEnded() error { return coded("evicted", nil, "this session ended: reload the page") }

// bulkTurnUnless is bulkTurn for a slice of long work nobody needs once
// quit closes (its session ended; the server is shutting down): it waits
// for a bulk slot or for quit, and runs f only if the slot came first and
// quit is still open. It reports whether f ran. Holding a bulk slot
// already (a slice inside long work), it runs f at once.
func (h *hold) bulkTurnUnless(quit <-chan struct{}, f func()) bool {
	if h.bulk {
		f()
		return true
	}
	select {
	case h.srv.bulk <- struct{}{}:
	case <-quit:
		return false
	}
	select {
	case <-quit: // both were ready: the end wins
		<-h.srv.bulk
		return false
	default:
	}
	h.bulk = true
	defer func() { h.bulk = false; <-h.srv.bulk }()
	h.turn(f)
	return true
}

// lost is the error of a run whose real Redis server stopped answering:
// the run has ended there, with an error event, and no verdict.
func lost(ls *lesson.Session) error {
	if err := ls.Lost(); err != nil {
		return coded("redis-lost", map[string]any{"detail": err.Error()},
			"the run stopped at step %d: %s (see the last event); check the Redis server, then reload the run", ls.Cursor(), err)
	}
	return nil
}

// unreachable is the error of a load or a reset that could not reach a
// real Redis server: redis-lost, as for a run whose server stopped
// answering mid-run (lost), not a bare error.
func (s *session) unreachable(err error) error {
	if err == nil || s.srv.opts.Servers == nil {
		return err
	}
	var ce *codedError
	var oe *net.OpError
	if errors.As(err, &ce) || !(errors.As(err, &oe) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, io.EOF)) {
		return err
	}
	return coded("redis-lost", map[string]any{"detail": err.Error()},
		"the run stopped: a Redis server stopped answering (%s); check the server, then reload the run", err)
}

// stepN takes up to n steps within the session's step cap, in the
// engine's slices.
func (s *session) stepN(n int) error {
	return s.steps(n, func() (bool, error) {
		if n == 0 {
			return false, nil
		}
		n--
		if err := s.capSteps(s.ls.Cursor() + 1); err != nil {
			return false, err
		}
		return s.ls.Step()
	})
}

// setPlaying starts or stops the play ticker.
func (s *session) setPlaying(on bool) {
	if s.ticker != nil {
		s.ticker.Stop()
		s.ticker = nil
	}
	s.playing = on
	if on {
		s.ticker = time.NewTicker(s.interval())
	}
}

// interval is the ticker period: at most 30 ticks a second, several steps
// a tick beyond that.
func (s *session) interval() time.Duration {
	return max(time.Duration(float64(time.Second)/math.Min(s.speed, 30)), time.Millisecond)
}

func (s *session) playTick() {
	if s.ls == nil || !s.playing {
		return
	}
	n, beat, err := int(math.Ceil(s.speed/30)), false, error(nil)
	if s.beats && !s.challenge {
		beat, err = s.stepBeats(n)
	} else {
		err = s.stepN(n)
	}
	if err != nil || s.ls.Done() || beat {
		s.setPlaying(false)
	}
	if err != nil && s.conn != nil {
		s.conn.enqueue(errorMessage(0, err))
	}
	s.push(0)
}
