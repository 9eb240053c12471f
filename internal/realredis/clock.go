package realredis

import "time"

// Precision is the resolution of a real server's clock: Redis keeps expiry
// times in milliseconds and drops a key once its clock is past them.
const Precision = time.Millisecond

// Clock ties a world's virtual time to the wall clock, one to one: virtual
// time t is the moment Start+t. It is the world's sim.Pacer in real mode,
// and Start is the world's epoch. The scale is fixed at 1: the commands the
// timeline shows are the commands the server runs, TTL arguments included,
// so the server's expiries can only match the scenario's durations in real
// time.
type Clock struct {
	Start time.Time
}

// NewClock starts a clock now, on a whole millisecond of the wall clock so
// that virtual milliseconds are the server's milliseconds.
func NewClock() *Clock { return &Clock{Start: time.Now().Truncate(time.Millisecond)} }

// Wait sleeps until the wall clock reaches virtual time t and gives the
// virtual time then: t itself when the engine is within Precision of it
// (the server cannot tell the difference, and a run does not drift by its
// own overhead), the wall clock's when it is further behind.
func (c *Clock) Wait(t time.Duration) time.Duration {
	if d := time.Until(c.Start.Add(t)); d > 0 {
		time.Sleep(d)
	}
	if now := time.Since(c.Start); now-t >= Precision {
		return now
	}
	return t
}

// Precision is the server clock's resolution.
func (c *Clock) Precision() time.Duration { return Precision }

// Epoch is the wall-clock moment of virtual time 0.
func (c *Clock) Epoch() time.Time { return c.Start }
