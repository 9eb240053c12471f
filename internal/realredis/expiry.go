package realredis

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// NotifyFlags are the keyspace notifications the engine needs from a
// server: keyspace channels (K) for expired keys (x), nothing else. The
// backend adds them to the server's notify-keyspace-events when it may,
// and never removes any.
const NotifyFlags = "Kx"

// ErrNoNotifications refuses a server that does not send the keyspace
// notifications of expired keys, when the URL's user may not turn them on.
var ErrNoNotifications = errors.New("realredis: the server sends no keyspace notifications of expired keys " +
	"(an administrator must run CONFIG SET notify-keyspace-events " + NotifyFlags + ", or add K and x to its flags)")

// expiries hears a server's own reports of the session's keys that expire:
// one connection subscribed to the keyspace channel of every key the
// session names (__keyspace@DB__:PREFIXkey), where Redis publishes
// "expired" the moment it drops the key. Drain collects what it sent.
type expiries struct {
	mu      sync.Mutex
	conn    net.Conn
	r       *bufio.Reader
	channel string // __keyspace@DB__:PREFIX
	subbed  map[string]bool
	got     []string // keys reported expired, not yet drained
	err     error    // the connection failed: no more reports
	pings   int
}

// newExpiries opens the subscriber connection of a backend.
func newExpiries(b *Backend) (*expiries, error) {
	c, err := b.dial()
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.adminAddrs = append(b.adminAddrs, c.LocalAddr().String())
	b.mu.Unlock()
	return &expiries{conn: c, r: bufio.NewReader(c), subbed: map[string]bool{},
		channel: "__keyspace@" + strconv.Itoa(b.target.DB) + "__:" + b.prefix}, nil
}

// subscribe starts hearing key's reports. It does not wait for the
// server's confirmation (the next drain reads it): the SUBSCRIBE is on the
// wire before the command that names the key, and Redis takes both in the
// same turn of its event loop or the SUBSCRIBE first, long before a TTL of
// a millisecond or more can run out.
func (x *expiries) subscribe(key string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.subbed[key] || x.err != nil {
		return x.err
	}
	if err := x.send("SUBSCRIBE", x.channel+key); err != nil {
		return err
	}
	x.subbed[key] = true
	return nil
}

// drain gives the keys the server reported expired since the last drain.
// A PING on the subscriber connection comes back after everything the
// server published before it, so every report made so far is in.
func (x *expiries) drain() ([]string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.err == nil {
		x.pings++
		token := "drain-" + strconv.Itoa(x.pings)
		if err := x.send("PING", token); err == nil {
			_ = x.readUntil("pong", token)
		}
	}
	got := x.got
	x.got = nil
	return got, x.err
}

// send writes one command.
func (x *expiries) send(args ...string) error {
	if _, err := x.conn.Write(encode(args)); err != nil {
		x.err = err
	}
	return x.err
}

// readUntil reads pushed messages until the reply kind (subscribe, pong)
// for arg, keeping the expired keys it passes.
func (x *expiries) readUntil(kind, arg string) error {
	for {
		msg, err := readPush(x.r)
		if err != nil {
			x.err = fmt.Errorf("realredis: keyspace notifications: %w", err)
			return x.err
		}
		switch {
		case len(msg) == 3 && msg[0] == "message" && msg[2] == "expired":
			if key, ok := strings.CutPrefix(msg[1], x.channel); ok {
				x.got = append(x.got, key)
			}
		case len(msg) >= 2 && msg[0] == kind && msg[1] == arg:
			return nil
		case len(msg) == 1 && strings.HasPrefix(msg[0], "-"):
			x.err = fmt.Errorf("realredis: keyspace notifications: %s", msg[0][1:])
			return x.err
		}
	}
}

// close ends the subscription.
func (x *expiries) close() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.conn.Close()
	if x.err == nil {
		x.err = net.ErrClosed
	}
}

// readPush reads one reply of a subscribed connection: an array of bulk
// strings and integers (a message, a subscription, a pong), or an error
// reply as a one-element array holding "-ERR ...".
func readPush(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimRight(line, "\r\n")
	if strings.HasPrefix(line, "-") {
		return []string{line}, nil
	}
	if !strings.HasPrefix(line, "*") {
		return nil, fmt.Errorf("unexpected reply %q", line)
	}
	n, err := strconv.Atoi(line[1:])
	if err != nil {
		return nil, fmt.Errorf("unexpected reply %q", line)
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		h, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		h = strings.TrimRight(h, "\r\n")
		switch {
		case strings.HasPrefix(h, ":"):
			out = append(out, h[1:])
		case strings.HasPrefix(h, "$"):
			size, err := strconv.Atoi(h[1:])
			if err != nil || size < 0 {
				return nil, fmt.Errorf("unexpected element %q", h)
			}
			buf := make([]byte, size+2)
			if _, err := io.ReadFull(r, buf); err != nil {
				return nil, err
			}
			out = append(out, string(buf[:size]))
		default:
			return nil, fmt.Errorf("unexpected element %q", h)
		}
	}
	return out, nil
}

// ensureNotifications makes sure the server publishes the expiries: it
// adds NotifyFlags to notify-keyspace-events when the URL's user may read
// and set the configuration, and otherwise proves it by a key of its own
// that expires at once (the minimal ACL user may not touch CONFIG).
func (b *Backend) ensureNotifications() error {
	ctx, cancel := b.ctx()
	defer cancel()
	cur, err := b.admin.ConfigGet(ctx, "notify-keyspace-events").Result()
	if err == nil {
		flags := cur["notify-keyspace-events"]
		want := flags
		if !strings.Contains(want, "K") {
			want += "K"
		}
		if !strings.ContainsAny(want, "xA") {
			want += "x"
		}
		if want == flags {
			return nil
		}
		return b.admin.ConfigSet(ctx, "notify-keyspace-events", want).Err()
	}
	return b.probeNotifications()
}

// probeNotifications writes a key of the session's with a TTL of 1ms,
// touches it once its time is up (Redis then drops it and reports it), and
// expects the report.
func (b *Backend) probeNotifications() error {
	const probe = "~expiry-probe"
	if err := b.exp.subscribe(probe); err != nil {
		return err
	}
	ctx, cancel := b.ctx()
	defer cancel()
	if err := b.admin.Set(ctx, b.prefix+probe, "1", time.Millisecond).Err(); err != nil {
		return err
	}
	time.Sleep(3 * time.Millisecond)
	if err := b.admin.Exists(ctx, b.prefix+probe).Err(); err != nil {
		return err
	}
	got, err := b.exp.drain()
	if err != nil {
		return err
	}
	for _, k := range got {
		if k == probe {
			return nil
		}
	}
	return ErrNoNotifications
}

// Expired gives the session's keys the server reported expired since the
// last call, each with its expiry time as last read. A replica reports
// none: Redis expires a replica's keys when its master says (ok false).
func (b *Backend) Expired() ([]sim.Expiry, bool) {
	if b.pair != nil && b.target.Addr == b.pair.Replica.Addr && !b.pair.promoted.Load() {
		return nil, false
	}
	now := time.Now()
	if !b.due(now) {
		return nil, true // no key's time is up: Redis cannot have expired one
	}
	keys, err := b.exp.drain()
	if err != nil {
		return nil, false // no more reports: the engine reads its keys' states instead
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]sim.Expiry, len(keys))
	for i, k := range keys {
		out[i] = sim.Expiry{Key: k, At: b.deadline[k]}
		delete(b.deadline, k)
	}
	return out, true
}

// due reports whether the time of a key the session read with a TTL is
// up at now and Redis has not reported it yet (it will: Redis removes a
// key past its time only by expiring it). Asking Redis for its reports
// costs a round trip; when no key's time is up, there is nothing it can
// have reported.
func (b *Backend) due(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, at := range b.deadline {
		if !at.After(now) {
			return true
		}
	}
	return false
}

var _ sim.ServerTimed = (*Backend)(nil)
