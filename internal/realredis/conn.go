package realredis

// The backend's connections: the admin connection, the clients' own
// (authenticated, on the URL's database, with deadlines), and the
// handshake they send before go-redis' own.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

func (b *Backend) dialAdmin(context.Context, string, string) (net.Conn, error) {
	c, err := b.dial()
	if err == nil {
		b.mu.Lock()
		b.adminAddrs = append(b.adminAddrs, c.LocalAddr().String())
		b.mu.Unlock()
	}
	return c, err
}

// AdminAddrs are the local addresses of the backend's own connections (it
// reads key state through one and hears expiries on another): a server's
// MONITOR stream shows them apart from the clients' commands.
func (b *Backend) AdminAddrs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.adminAddrs...)
}

// Target is the server the backend talks to.
func (b *Backend) Target() Target { return b.target }

// Dial opens a client connection, authenticated and on the URL's
// database, whose every read and write must finish within Timeout. It
// notes when each command goes out and its reply comes in (Ran).
func (b *Backend) Dial() (net.Conn, error) {
	c, warm := b.takeWarm()
	b.mu.Lock()
	b.wasWarm = warm
	b.mu.Unlock()
	if !warm {
		var err error
		if c, err = b.dial(); err != nil {
			return nil, err
		}
	}
	return timedConn{Conn: c, r: &b.ran}, nil
}

// dial opens a TCP connection, authenticated and on the URL's database,
// whose every read and write must finish within Timeout.
func (b *Backend) dial() (net.Conn, error) {
	c, err := net.DialTimeout("tcp", b.target.Addr, Timeout)
	if err != nil {
		b.noteLost(err)
		return nil, err
	}
	conn := &deadlineConn{Conn: c, b: b}
	var setup [][]string
	if b.target.Password != "" {
		if b.target.Username != "" {
			setup = append(setup, []string{"AUTH", b.target.Username, b.target.Password})
		} else {
			setup = append(setup, []string{"AUTH", b.target.Password})
		}
	}
	if b.target.DB != 0 {
		setup = append(setup, []string{"SELECT", strconv.Itoa(b.target.DB)})
	}
	r := bufio.NewReader(conn)
	for _, cmd := range setup {
		if err := rawCommand(conn, r, cmd); err != nil {
			conn.Close()
			return nil, fmt.Errorf("realredis: %s: %s: %w", b.target.URL, cmd[0], err)
		}
	}
	if r.Buffered() > 0 {
		conn.Close()
		return nil, errors.New("realredis: unexpected data after the handshake")
	}
	return conn, nil
}

// Handshake gives what Dial sent before go-redis' own handshake, as the
// server's MONITOR shows it (the password redacted); nothing for a
// connection opened ahead of the run (Warm), whose handshake came before.
func (b *Backend) Handshake() []string {
	b.mu.Lock()
	warm := b.wasWarm
	b.mu.Unlock()
	if warm {
		return nil
	}
	var out []string
	switch {
	case b.target.Password != "" && b.target.Username != "":
		out = append(out, "AUTH (redacted) (redacted)")
	case b.target.Password != "":
		out = append(out, "AUTH (redacted)")
	}
	if b.target.DB != 0 {
		out = append(out, "SELECT "+strconv.Itoa(b.target.DB))
	}
	return out
}

// rawCommand sends one command and expects +OK: the handshake that go-redis
// does not see (so that it never shows the password).
func rawCommand(c net.Conn, r *bufio.Reader, args []string) error {
	if _, err := c.Write(encode(args)); err != nil {
		return err
	}
	line, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	if line = strings.TrimSpace(line); line != "+OK" {
		return errors.New(strings.TrimPrefix(line, "-"))
	}
	return nil
}

// encode writes a command in the Redis protocol (RESP), as an array of
// bulk strings.
func encode(args []string) []byte {
	var sb strings.Builder
	fmt.Fprintf(&sb, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&sb, "$%d\r\n%s\r\n", len(a), a)
	}
	return []byte(sb.String())
}

// deadlineConn gives every read and write its own deadline, and tells its
// backend when the server stops answering on it (Lost).
type deadlineConn struct {
	net.Conn
	b *Backend
}

func (c *deadlineConn) Read(p []byte) (int, error) {
	if err := c.b.hung(); err != nil {
		return 0, err
	}
	_ = c.Conn.SetReadDeadline(time.Now().Add(Timeout))
	n, err := c.Conn.Read(p)
	if err != nil {
		c.b.noteLost(err)
	}
	return n, err
}

func (c *deadlineConn) Write(p []byte) (int, error) {
	if err := c.b.hung(); err != nil {
		return 0, err
	}
	_ = c.Conn.SetWriteDeadline(time.Now().Add(Timeout))
	n, err := c.Conn.Write(p)
	if err != nil {
		c.b.noteLost(err)
	}
	return n, err
}

// noteLost records the first sign that the server stopped answering: a
// connection refused, cut (EOF, reset) or silent for Timeout. A connection
// this program closed, or any after the backend began to close, is not one.
func (b *Backend) noteLost(err error) {
	if errors.Is(err, net.ErrClosed) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lost == nil && !b.closing {
		b.lost = fmt.Errorf("%s: %w", b.target.URL, err)
	}
}

// hung is why the server stopped answering, when it was silent for
// Timeout on one of the backend's connections (a hung or stopped server):
// every later read and write on any of them fails at once with it, rather
// than waiting Timeout again (the step that noticed would else wait once
// for its command, once for each key state it reads and once for the
// expiry reports). A refused or cut connection fails fast by itself, and
// once the backend closes, its cleanup tries the server again. The
// backends of a Pair, whose master is killed on purpose, are left alone.
func (b *Backend) hung() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lost == nil || b.closing || b.pair != nil || !errors.Is(b.lost, os.ErrDeadlineExceeded) {
		return nil
	}
	return b.lost
}

// Lost says why the server stopped answering, once it has (sim.Loser).
// The master of a Pair killed by a failover fault is gone on purpose.
func (b *Backend) Lost() error {
	if b.pair != nil && b.target.Addr == b.pair.Master.Addr && b.pair.promoted.Load() {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lost
}
