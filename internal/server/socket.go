package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// checkOrigin allows the page's own origin (its scheme and host), the
// listed origins, and clients that send no Origin (not browsers).
func (s *Server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) && strings.EqualFold(u.Scheme, s.scheme(r)) {
		return true
	}
	for _, a := range s.opts.AllowOrigins {
		if a == "*" || strings.EqualFold(strings.TrimSuffix(a, "/"), origin) || strings.EqualFold(a, u.Host) {
			return true
		}
	}
	return false
}

// scheme is the scheme the page was served by: https over TLS, or as a
// trusted proxy says it (X-Forwarded-Proto), else http.
func (s *Server) scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if s.trusted(hostOf(r.RemoteAddr)) {
		if p := strings.ToLower(r.Header.Get("X-Forwarded-Proto")); p == "https" || p == "http" {
			return p
		}
	}
	return "http"
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	addr := s.clientAddr(r)
	if err := s.takeSocket(addr); err != nil {
		s.refuse(w, r, err)
		return
	}
	defer s.dropSocket(addr)
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := newConn(ws, s.limits.SendQueue)
	c.addr = addr
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.close(websocket.CloseGoingAway, "the server is shutting down")
		c.writer()
		return
	}
	s.conns[c] = true
	s.mu.Unlock()
	go c.writer()
	s.read(c)
	// The writer ends within closeWait of the reader's close; the socket
	// stays among s.conns until then, so that Close waits for it too.
	<-c.finished
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// refuse answers a socket the server will not hold with an error saying
// why (its code for the page) and closes it with 1013 (try again later).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, why error) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := newConn(ws, 1)
	c.enqueue(errorMessage(0, why))
	c.close(websocket.CloseTryAgainLater, short(why.Error()))
	c.writer()
}

// readMessage reads the next message into buf, whose memory serves
// message after message (gorilla's ReadMessage allocates each anew).
// The bytes are valid until the next call.
func readMessage(ws *websocket.Conn, buf *bytes.Buffer) ([]byte, error) {
	if buf.Cap() > 16<<10 {
		*buf = bytes.Buffer{} // a large message's memory is not kept
	}
	buf.Reset()
	_, r, err := ws.NextReader()
	if err != nil {
		return nil, err
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// read is the connection's one reading goroutine.
func (s *Server) read(c *conn) {
	var sess *session
	defer func() {
		c.close(websocket.CloseNormalClosure, "")
		if sess != nil {
			sess.open.Add(-1)
			sess.touch()
			sess.do(func() { sess.detach(c) })
		}
	}()
	c.ws.SetReadLimit(readLimit)
	_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
	c.ws.SetPongHandler(func(string) error { return c.ws.SetReadDeadline(time.Now().Add(pongWait)) })
	var buf bytes.Buffer
	for {
		data, err := readMessage(c.ws, &buf)
		read := time.Now()
		if err != nil {
			if websocket.IsCloseError(err, websocket.CloseMessageTooBig) || strings.Contains(err.Error(), "read limit") {
				c.close(websocket.CloseMessageTooBig, fmt.Sprintf("message over %d bytes", readLimit))
			}
			return
		}
		if c.closing() { // dropped (for flooding, say): what it still sends would fill the session's queue
			return
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
		var req Request
		if err := json.Unmarshal(data, &req); err != nil {
			c.enqueue(errorMessage(idOf(data), coded("bad-message", map[string]any{"detail": err.Error()}, "bad message: %s", err.Error())))
			continue
		}
		if err := exactFields(data); err != nil {
			c.enqueue(errorMessage(req.ID, err))
			continue
		}
		if err := validate(&req, s.limits); err != nil {
			c.enqueue(errorMessage(req.ID, err))
			continue
		}
		if req.Op == "hello" {
			next, err := s.open(req.Session, c.addr)
			if err != nil {
				c.enqueue(errorMessage(req.ID, err))
				continue
			}
			if sess != nil && sess != next {
				sess.open.Add(-1)
				old := sess
				old.do(func() { old.detach(c) })
			}
			if sess != next {
				next.open.Add(1)
			}
			// A socket's first hello (a browser reconnecting) waits for room
			// in its session's queue; a later one on the same socket does not
			// hold up its reader.
			wait := helloWait
			if sess != nil {
				wait = 0
			}
			sess = next // the closures below take next, never the variable sess, which the next hello changes
			if !next.doWithin(func() { next.attach(c) }, wait) {
				c.enqueue(errorMessage(req.ID, coded("session-busy", nil, "the session is busy or gone: reload the page")))
			}
			continue
		}
		if sess == nil {
			c.enqueue(errorMessage(req.ID, coded("hello-first", nil, "send hello first (see docs/protocol.md)")))
			continue
		}
		sess.touch()
		r, cur := req, sess
		if !cur.do(func() { cur.handle(c, &r); s.took(r.Op, time.Since(read)) }) {
			c.enqueue(errorMessage(req.ID, coded("busy", nil, "busy: too many requests in flight, try again")))
		}
	}
}
