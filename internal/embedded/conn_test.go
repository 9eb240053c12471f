package embedded

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

// client is a new embedded server and a go-redis client over its
// in-memory connections, both closed when the test ends.
func client(t *testing.T) (*Backend, *redis.Client) {
	t.Helper()
	b := New(1)
	t.Cleanup(func() { b.Close() })
	c := redis.NewClient(&redis.Options{
		Addr: "embedded", Protocol: 2, DisableIdentity: true, ReadBufferSize: 4 << 10, WriteBufferSize: 4 << 10,
		Dialer: func(context.Context, string, string) (net.Conn, error) { return b.Dial() },
	})
	t.Cleanup(func() { c.Close() }) // before the server's: cleanups run last first
	return b, c
}

// A command runs when its last byte is written, whatever the writes that
// carry it: a script larger than go-redis' 4 KiB write buffer arrives in
// pieces and still runs once, with its reply in place.
func TestACommandWrittenInPiecesRunsOnce(t *testing.T) {
	b, c := client(t)
	ctx := context.Background()
	script := "-- " + strings.Repeat("x", 10<<10) + "\nreturn redis.call('INCR', KEYS[1])"
	for want := int64(1); want <= 3; want++ {
		got, err := c.Eval(ctx, script, []string{"n"}).Int64()
		if err != nil || got != want {
			t.Fatalf("EVAL of a 10 KiB script, call %d: %d, %v; want %d", want, got, err, want)
		}
	}
	if v, _ := b.m.Get("n"); v != "3" {
		t.Errorf("n = %q after three INCRs, want 3", v)
	}
}

// A pipeline writes several commands at once: each runs, in order, and
// each reply reaches its command.
func TestAPipelineRunsInOrder(t *testing.T) {
	_, c := client(t)
	ctx := context.Background()
	cmds, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, "k", "1", 0)
		p.Incr(ctx, "k")
		p.Get(ctx, "k")
		p.Get(ctx, "missing")
		return nil
	})
	if !errors.Is(err, redis.Nil) {
		t.Fatalf("pipeline: %v, want redis.Nil from the last GET", err)
	}
	if got := cmds[2].(*redis.StringCmd).Val(); got != "2" {
		t.Errorf("GET after SET 1 and INCR: %q, want 2", got)
	}
}

// Reading with no reply due is a bug of the caller's: it fails at once
// instead of blocking the engine for ever. A closed server takes no more
// commands.
func TestNoReplyDueAndClosed(t *testing.T) {
	b := New(1)
	conn, err := b.Dial()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Read(make([]byte, 16)); err == nil {
		t.Error("read with nothing written: want an error")
	}
	if _, err := conn.Write([]byte("*1\r\n$4\r\nPING\r\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	if n, err := conn.Read(buf); err != nil || string(buf[:n]) != "+PONG\r\n" {
		t.Errorf("PING: %q, %v", buf[:n], err)
	}
	if _, err := conn.Write([]byte("*1\r\n$4\r\nQUIT\r\n*1\r\n$4\r\nPING\r\n")); err != nil {
		t.Fatal(err)
	}
	if n, err := conn.Read(buf); err != nil || string(buf[:n]) != "+OK\r\n" {
		t.Errorf("QUIT then PING in one write: %q, %v; want QUIT's OK alone", buf[:n], err)
	}
	if _, err := conn.Write([]byte("*1\r\n$4\r\nPING\r\n")); !errors.Is(err, net.ErrClosed) {
		t.Errorf("write after QUIT: %v, want net.ErrClosed", err)
	}
	conn, _ = b.Dial()
	b.Close()
	if _, err := conn.Write([]byte("*1\r\n$4\r\nPING\r\n")); !errors.Is(err, net.ErrClosed) {
		t.Errorf("write after the server closed: %v, want net.ErrClosed", err)
	}
	if _, err := b.Dial(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("dial after the server closed: %v, want net.ErrClosed", err)
	}
}

// parseArray waits for the whole command: cut anywhere, it asks for more;
// whole, it gives the arguments and the bytes used; what is not RESP is
// an error.
func TestParseArray(t *testing.T) {
	cmd := "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\na\r\nb!\r\n"
	for i := range len(cmd) {
		if args, n, err := parseArray([]byte(cmd[:i])); n != 0 || err != nil || args != nil {
			t.Fatalf("cut at %d: %q, %d, %v; want more to come", i, args, n, err)
		}
	}
	args, n, err := parseArray([]byte(cmd + "*1"))
	if err != nil || n != len(cmd) || strings.Join(args, "|") != "SET|k|a\r\nb!" {
		t.Errorf("whole: %q, %d, %v", args, n, err)
	}
	huge := "*1\r\n$9223372036854775807\r\nPING\r\n" // a length that would overflow: more to come, never a panic
	if args, n, err := parseArray([]byte(huge)); n != 0 || err != nil || args != nil {
		t.Errorf("huge bulk length: %q, %d, %v; want more to come", args, n, err)
	}
	for _, bad := range []string{"PING\r\n", "*x\r\n", "*1\r\n$x\r\n", "*1\r\n#1\r\n"} {
		if _, _, err := parseArray([]byte(bad)); err == nil {
			t.Errorf("%q: want a protocol error", bad)
		}
	}
}

// The Lua interpreters are smaller than gopher-lua's defaults, and still
// far larger than any lock script needs: a script 40 calls deep that
// unpacks 500 values runs; one that recurses without end fails with a
// Lua error, not a crash.
func TestLuaRoom(t *testing.T) {
	_, c := client(t)
	ctx := context.Background()
	deep := `
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
local t = {}
for i = 1, 500 do t[i] = i end
return {depth(40), select('#', unpack(t))}`
	got, err := c.Eval(ctx, deep, nil).Slice()
	if err != nil || len(got) != 2 || got[0] != int64(40) || got[1] != int64(500) {
		t.Fatalf("40 calls deep, 500 values: %v, %v", got, err)
	}
	_, err = c.Eval(ctx, `local function f(n) return 1 + f(n + 1) end return f(1)`, nil).Result()
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "overflow") {
		t.Errorf("endless recursion: %v, want a stack overflow error", err)
	}
	if got, err := c.Eval(ctx, `return 1`, nil).Int64(); err != nil || got != 1 {
		t.Errorf("a script after the overflow: %d, %v", got, err)
	}
}
