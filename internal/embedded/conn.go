package embedded

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2/server"
)

// conn is a client connection to the embedded server that runs each
// command on the caller's goroutine. Write gathers the bytes of RESP
// arrays; each complete one is dispatched to miniredis (server.Dispatch,
// with the connection's own server.Peer, as miniredis's connection loop
// does) and its reply kept for Read. miniredis's own in-memory connection
// (Dial: net.Pipe) serves each connection with two goroutines and hands
// every command over three times; under load that hand-over, not the
// commands, was most of a step's latency. The commands, their replies and
// the state they change are miniredis's: only the transport differs.
//
// A conn is used by one goroutine at a time (the engine's); it never
// blocks. It has no pub/sub: nothing here subscribes on embedded Redis.
type conn struct {
	b    *Backend
	peer *server.Peer
	in   []byte       // written bytes not yet a whole command
	out  bytes.Buffer // replies not yet read
	w    *bufio.Writer
	shut bool
}

var errClosed = fmt.Errorf("embedded: %w", net.ErrClosed)

func newConn(b *Backend) *conn {
	c := &conn{b: b}
	c.w = bufio.NewWriterSize(&c.out, 512)
	c.peer = server.NewPeer(c.w)
	return c
}

// Write takes command bytes and runs every command they complete.
func (c *conn) Write(p []byte) (int, error) {
	if c.shut || c.b.closed {
		return 0, errClosed
	}
	c.in = append(c.in, p...)
	off := 0
	for off < len(c.in) {
		args, n, err := parseArray(c.in[off:])
		if err != nil {
			c.in = c.in[:0]
			return 0, fmt.Errorf("embedded: %w", err)
		}
		if n == 0 {
			break // the rest of the command is still to come
		}
		off += n
		if len(args) > 0 {
			c.b.m.Server().Dispatch(c.peer, args)
			c.peer.Flush()
			if c.peer.Closed() { // QUIT: the server closes the connection after its reply
				c.shut = true
				break
			}
		}
	}
	switch {
	case off < len(c.in):
		c.in = append(c.in[:0], c.in[off:]...) // the rest of a command, to the front
	case cap(c.in) > 4<<10:
		c.in = nil // a large script's memory is not kept
	default:
		c.in = c.in[:0]
	}
	return len(p), nil
}

// Read gives the replies of the commands written so far. With none
// waiting it fails rather than block: every command has a reply, and the
// engine reads only after writing one.
func (c *conn) Read(p []byte) (int, error) {
	if c.out.Len() == 0 {
		if c.shut || c.b.closed {
			return 0, errClosed
		}
		return 0, errors.New("embedded: read with no reply pending")
	}
	return c.out.Read(p)
}

// Close ends the connection: replies not yet read are dropped.
func (c *conn) Close() error {
	c.shut = true
	c.out.Reset()
	return nil
}

// The connection is in memory: it has no addresses and never times out.
type memAddr struct{}

func (memAddr) Network() string { return "memory" }
func (memAddr) String() string  { return "embedded" }

func (c *conn) LocalAddr() net.Addr              { return memAddr{} }
func (c *conn) RemoteAddr() net.Addr             { return memAddr{} }
func (c *conn) SetDeadline(time.Time) error      { return nil }
func (c *conn) SetReadDeadline(time.Time) error  { return nil }
func (c *conn) SetWriteDeadline(time.Time) error { return nil }

// parseArray reads one command from the front of b: a RESP array of bulk
// (or simple) strings, as miniredis's reader takes it. n is the bytes it
// used, 0 when b does not yet hold the whole command.
func parseArray(b []byte) (args []string, n int, err error) {
	line, rest, ok := cutLine(b)
	if !ok {
		return nil, 0, nil
	}
	if len(line) < 1 || line[0] != '*' {
		return nil, 0, fmt.Errorf("protocol error: expected an array, got %q", line)
	}
	count, err := strconv.Atoi(string(line[1:]))
	if err != nil {
		return nil, 0, fmt.Errorf("protocol error: bad array length %q", line)
	}
	for ; count > 0; count-- {
		line, after, ok := cutLine(rest)
		if !ok {
			return nil, 0, nil
		}
		if len(line) < 1 {
			return nil, 0, fmt.Errorf("protocol error: empty line")
		}
		switch line[0] {
		case '+', '-', ':':
			args = append(args, string(line[1:]))
			rest = after
		case '$':
			size, err := strconv.Atoi(string(line[1:]))
			if err != nil {
				return nil, 0, fmt.Errorf("protocol error: bad bulk length %q", line)
			}
			if size < 0 {
				args = append(args, "")
				rest = after
				continue
			}
			if len(after)-2 < size {
				return nil, 0, nil
			}
			args = append(args, string(after[:size]))
			rest = after[size+2:]
		default:
			return nil, 0, fmt.Errorf("protocol error: unexpected %q", line)
		}
	}
	return args, len(b) - len(rest), nil
}

// cutLine splits b after its first CRLF; the line is without it.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.Index(b, []byte("\r\n"))
	if i < 0 {
		return nil, b, false
	}
	return b[:i], b[i+2:], true
}
