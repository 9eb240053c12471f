package realredis

import (
	"net"
	"sync"
	"time"
)

// ran brackets the session's last client command on one server: when it
// started to go on the wire and when the last of its reply was in. Redis
// ran it somewhere in between; it does not say exactly when (MONITOR would,
// but it needs an administrator and shows every client's commands).
type ran struct {
	mu            sync.Mutex
	sent, replied time.Time
	readSince     bool // a read since the last write: the next write is a new command
}

func (r *ran) wrote(at time.Time) {
	r.mu.Lock()
	if r.sent.IsZero() || r.readSince {
		r.sent, r.readSince = at, false
	}
	r.mu.Unlock()
}

func (r *ran) read(at time.Time) {
	r.mu.Lock()
	r.replied, r.readSince = at, true
	r.mu.Unlock()
}

// take gives the bracket and starts a new one.
func (r *ran) take() (sent, replied time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	sent, replied = r.sent, r.replied
	r.sent, r.replied, r.readSince = time.Time{}, time.Time{}, false
	return sent, replied
}

// timedConn is a client connection that tells ran when it writes and
// reads: the moment before a write starts, the moment after a read ends.
type timedConn struct {
	net.Conn
	r *ran
}

func (c timedConn) Write(p []byte) (int, error) {
	c.r.wrote(time.Now())
	return c.Conn.Write(p)
}

func (c timedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.r.read(time.Now())
	}
	return n, err
}

// Ran gives when the last client command went on the wire and when its
// whole reply was in, on the wall clock (which is Redis' clock: the
// servers run on this machine or near it).
func (b *Backend) Ran() (sent, replied time.Time) { return b.ran.take() }
