package server

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

const (
	writeWait  = 10 * time.Second  // the longest a write may take
	pongWait   = 60 * time.Second  // the longest between two pongs
	pingPeriod = pongWait * 9 / 10 // how often we ping
	closeWait  = 2 * time.Second   // how long a close frame may take
	helloWait  = 10 * time.Second  // how long a hello may wait for room in its session's queue
)

// conn is one browser's WebSocket. Only writer writes to ws; the reader
// goroutine (Server.serveConn) is the only one that reads.
type conn struct {
	ws       *websocket.Conn
	addr     string // the client address it counts against (clients.go)
	send     chan []byte
	done     chan struct{} // closed by close: the writer should say goodbye
	finished chan struct{} // closed when the writer has sent its close frame and closed ws
	once     sync.Once

	mu        sync.Mutex
	closeCode int
	closeText string
	closeBy   time.Time // close's deadline: the writer has ended by then
}

func newConn(ws *websocket.Conn, queue int) *conn {
	return &conn{ws: ws, send: make(chan []byte, queue), done: make(chan struct{}), finished: make(chan struct{})}
}

// enqueue queues a message without waiting; a browser whose queue is full
// is too slow and is dropped.
func (c *conn) enqueue(m *Message) {
	b := encode(m)
	select {
	case <-c.done:
	case c.send <- b:
	default:
		c.close(websocket.ClosePolicyViolation, "too slow: the send queue is full")
	}
}

// encode is a message's JSON, or an internal error's in its place.
func encode(m *Message) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		b, _ = json.Marshal(errorMessage(m.Re, coded("internal", map[string]any{"detail": err.Error()}, "internal: %v", err)))
	}
	return b
}

// enqueueWait queues an encoded message, waiting for room in the queue
// (the parts of a long state, more than a queue holds, sent as the browser
// reads them); false when the connection or quit closes first.
func (c *conn) enqueueWait(b []byte, quit <-chan struct{}) bool {
	select {
	case <-c.done:
		return false
	case <-quit:
		return false
	case c.send <- b:
		return true
	}
}

// close asks the writer to send a close frame with code and end the
// connection, within closeWait: a writer still blocked in a write then
// (a browser that has stopped reading, its socket's buffers full) has its
// socket closed under it, so that no close waits for writeWait. The first
// call wins.
func (c *conn) close(code int, text string) {
	c.once.Do(func() {
		c.mu.Lock()
		c.closeCode, c.closeText = code, text
		c.closeBy = time.Now().Add(closeWait)
		c.mu.Unlock()
		close(c.done)
		if c.ws == nil {
			return
		}
		time.AfterFunc(closeWait, func() {
			select {
			case <-c.finished:
			default:
				_ = c.ws.NetConn().Close() // the blocked write returns at once
			}
		})
	})
}

// closing reports whether close has been called.
func (c *conn) closing() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// writer is the connection's one writing goroutine.
func (c *conn) writer() {
	ping := time.NewTicker(pingPeriod)
	defer func() {
		ping.Stop()
		_ = c.ws.Close()
		close(c.finished)
	}()
	for {
		select {
		case <-c.done: // a close goes before what is still queued
			c.goodbye()
			return
		default:
		}
		select {
		case b := <-c.send:
			_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-c.done:
			c.goodbye()
			return
		}
	}
}

// goodbye sends the close frame, after what is queued unless the browser
// is too slow to read, by close's deadline.
func (c *conn) goodbye() {
	c.mu.Lock()
	code, text, deadline := c.closeCode, c.closeText, c.closeBy
	c.mu.Unlock()
	if code == websocket.CloseAbnormalClosure {
		return
	}
	if code != websocket.ClosePolicyViolation { // a browser too slow to read gets no more
		c.flush(deadline) // what was queued before the close (an error saying why) goes first
	}
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), deadline)
}

// flush writes the messages still queued, until the queue is empty or the
// deadline passes.
func (c *conn) flush(deadline time.Time) {
	_ = c.ws.SetWriteDeadline(deadline)
	for {
		select {
		case b := <-c.send:
			if c.ws.WriteMessage(websocket.TextMessage, b) != nil {
				return
			}
		default:
			return
		}
	}
}
