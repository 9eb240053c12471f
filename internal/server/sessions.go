package server

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/gorilla/websocket"
)

// open finds the session with id, or makes a new one for a client at
// addr. At a cap (the server's sessions, or the address's), the longest
// idle session without a socket makes room: the address's own at its cap,
// anyone's at the server's.
func (s *Server) open(id, addr string) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, coded("shutting-down", nil, "the server is shutting down")
	}
	if sess, ok := s.sessions[id]; ok && id != "" {
		sess.touch()
		return sess, nil
	}
	if u := s.addrs[addr]; u != nil && u.sessions >= s.limits.MaxSessionsPerAddress {
		s.evictOneLocked(addr)
		if u.sessions >= s.limits.MaxSessionsPerAddress {
			return nil, coded("address-sessions", map[string]any{"max": s.limits.MaxSessionsPerAddress},
				"your address holds %d sessions, the most one address may, each with a tab open: close one and try again", s.limits.MaxSessionsPerAddress)
		}
	}
	if len(s.sessions) >= s.limits.MaxSessions {
		s.evictOneLocked("")
	}
	if len(s.sessions) >= s.limits.MaxSessions {
		return nil, coded("sessions-cap", map[string]any{"max": s.limits.MaxSessions}, "too many sessions (the cap is %d): try again later", s.limits.MaxSessions)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	sess := newSession(s, hex.EncodeToString(b[:]))
	sess.addr = addr
	s.sessions[sess.id] = sess
	s.addrLocked(addr).sessions++
	return sess, nil
}

// evictOneLocked ends the session with no socket that has been idle
// longest, of addr ("": of any address), if there is one. The session of
// a teacher whose class waits for them (class.Room.TeacherAway) goes last: the
// class keeps its grace under any pressure on the table, and even when
// its session goes, its room waits for the key (classLeave).
func (s *Server) evictOneLocked(addr string) {
	away := s.classes.AwayTeachers()
	var oldest *session
	for _, sess := range s.sessions {
		if sess.open.Load() == 0 && (addr == "" || sess.addr == addr) &&
			(oldest == nil || away[oldest] && !away[sess] ||
				away[oldest] == away[sess] && sess.used.Load() < oldest.used.Load()) {
			oldest = sess
		}
	}
	if oldest != nil {
		s.removeLocked(oldest)
		go oldest.stop()
	}
}

// removeLocked forgets a session: it no longer counts against the caps.
func (s *Server) removeLocked(sess *session) {
	if s.sessions[sess.id] != sess {
		return
	}
	delete(s.sessions, sess.id)
	if u := s.addrs[sess.addr]; u != nil {
		u.sessions--
		s.tidyLocked(sess.addr)
	}
}

// evictLocked stops the sessions no browser has used for idle.
func (s *Server) evictLocked(idle time.Duration) {
	cut := time.Now().Add(-idle).UnixNano()
	for _, sess := range s.sessions {
		if sess.open.Load() == 0 && sess.used.Load() <= cut {
			s.removeLocked(sess)
			go sess.stop()
		}
	}
}

func (s *Server) janitor() {
	t := time.NewTicker(min(s.limits.Idle/4, time.Minute))
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.mu.Lock()
			s.evictLocked(s.limits.Idle)
			s.mu.Unlock()
		case <-s.stopJan:
			return
		}
	}
}

// forget removes a session that ended by itself (a recovered panic).
func (s *Server) forget(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.removeLocked(sess)
}

// isClosed reports whether Close has begun.
func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Sessions counts the live sessions.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Close closes every socket with 1001 (going away) and ends every
// session, then waits until each socket has sent its close frame and each
// session has released its world, at most ShutdownWait in all. Call it
// before http.Server.Shutdown, which does not know about hijacked
// connections, and let the process exit only after it returns.
func (s *Server) Close() {
	deadline := time.NewTimer(ShutdownWait)
	defer deadline.Stop()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	close(s.stopJan)
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	sessions := make([]*session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	for _, sess := range sessions {
		s.removeLocked(sess)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.close(websocket.CloseGoingAway, "the server is shutting down")
	}
	for _, sess := range sessions {
		sess.end() // each stops at its next slice (a search, a comparison, a seek) and releases its world
	}
	s.stopCard()
	for _, c := range conns {
		select {
		case <-c.finished:
		case <-deadline.C:
			s.opts.Logf("shutdown: %d sockets had not said goodbye after %s", s.unfinished(conns), ShutdownWait)
			return
		}
	}
	for _, sess := range sessions {
		select {
		case <-sess.gone:
		case <-deadline.C:
			s.opts.Logf("shutdown: sessions still releasing their worlds after %s", ShutdownWait)
			return
		}
	}
}

// ShutdownWait bounds Close, as docs/protocol.md promises: a close frame's
// own deadline (closeWait), and a little more.
const ShutdownWait = closeWait + time.Second

// unfinished counts the connections whose writer is still running.
func (s *Server) unfinished(conns []*conn) int {
	n := 0
	for _, c := range conns {
		select {
		case <-c.finished:
		default:
			n++
		}
	}
	return n
}
