package realredis

import (
	"sync"
	"time"
)

// Precision is the resolution of a real server's clock: Redis keeps expiry
// times in milliseconds and drops a key once its clock is past them.
const Precision = time.Millisecond

// Clock ties a world's virtual time to the wall clock, one to one: virtual
// time t is the moment Epoch+t. It is the world's sim.Pacer in real mode.
// The scale is fixed at 1: the commands the timeline shows are the commands
// the server runs, TTL arguments included, so the server's expiries can
// only match the scenario's durations in real time.
//
// The clock starts when the run makes its first move (its first Wait), not
// when it is made: starting the servers, writing the scenario's data and
// syncing a replica take real time, and so does a reader who opens a
// lesson and reads it before pressing step. Had the clock been running,
// the first moves would all be late, and a fault planned 100ms after them
// would overtake them. Nothing the engine does before the first move
// depends on the time (the scenario's data has no TTL).
type Clock struct {
	mu    sync.Mutex
	start time.Time // zero until the first Wait
}

// NewClock makes a clock that starts at its first Wait.
func NewClock() *Clock { return &Clock{} }

// begin starts the clock if it has not started, on a whole millisecond of
// the wall clock so that virtual milliseconds are the server's
// milliseconds, and gives its start.
func (c *Clock) begin() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.start.IsZero() {
		c.start = wallMillis()
	}
	return c.start
}

// wallMillis is the wall clock's current whole millisecond.
func wallMillis() time.Time { return time.Now().Truncate(time.Millisecond) }

// Wait sleeps until the wall clock reaches virtual time t and gives the
// virtual time then: t itself when the engine is within Precision of it
// (the server cannot tell the difference, and a run does not drift by its
// own overhead), the wall clock's when it is further behind.
func (c *Clock) Wait(t time.Duration) time.Duration {
	start := c.begin()
	if d := time.Until(start.Add(t)); d > 0 {
		time.Sleep(d)
	}
	if now := time.Since(start); now-t >= Precision {
		return now
	}
	return t
}

// Precision is the server clock's resolution.
func (c *Clock) Precision() time.Duration { return Precision }

// Epoch is the wall-clock moment of virtual time 0: the start, or now
// while the clock has not started (virtual time 0 is still to come).
func (c *Clock) Epoch() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.start.IsZero() {
		return wallMillis()
	}
	return c.start
}
