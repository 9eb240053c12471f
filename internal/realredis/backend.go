package realredis

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/lockstep/lockstep/internal/sim"
)

// Timeout bounds every dial, read and write to a real server: the engine
// waits for each reply, so a server that does not answer must fail fast.
const Timeout = 2 * time.Second

// PrefixRoot starts every session's key prefix; the ACL user of
// docs/real-redis.md may touch only keys under it.
const PrefixRoot = "lockstep:"

// NewPrefix makes a fresh per-session key prefix: lockstep:<random>:.
func NewPrefix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return PrefixRoot + hex.EncodeToString(b) + ":"
}

// Backend is one node on a real redis-server: the clients' commands go over
// TCP connections of their own with every key under the session's prefix;
// key state is read through a separate admin connection that the timeline
// never shows. Closing it removes every key the session touched.
type Backend struct {
	target Target
	prefix string
	admin  *redis.Client

	registry string // the instance's registry of key names (see Registry), "" for none

	mu         sync.Mutex
	keys       map[string]bool      // keys the session named, without the prefix
	deadline   map[string]time.Time // each key's expiry as last read, the first instant it is gone
	adminAddrs []string             // local addresses of the backend's own connections
	exp        *expiries            // the server's reports of the session's expired keys
	ran        ran                  // when the last client command was sent and answered
	warm       []net.Conn           // client connections opened ahead of the run (Warm)
	wasWarm    bool                 // the last Dial handed out one of them: its handshake was before the run

	pair *Pair // the run's own master and replica processes, if this is one of them

	lost    error // the server stopped answering (noteLost)
	closing bool  // Close or release began: errors from here on are ours
}

var _ sim.Backend = (*Backend)(nil)
var _ sim.KeyRecorder = (*Backend)(nil)
var _ sim.Handshaker = (*Backend)(nil)
var _ sim.Loser = (*Backend)(nil)

// Open connects to a server for one session's keys under prefix.
func Open(t Target, prefix string) (*Backend, error) {
	b := &Backend{target: t, prefix: prefix, keys: map[string]bool{}, deadline: map[string]time.Time{}}
	b.admin = redis.NewClient(&redis.Options{
		Addr:                     t.Addr,
		Dialer:                   b.dialAdmin,
		Protocol:                 2,
		DisableIdentity:          true,
		MaxRetries:               -1,
		PoolSize:                 1,
		DialTimeout:              Timeout,
		ReadTimeout:              Timeout,
		WriteTimeout:             Timeout,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	})
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := b.admin.Ping(ctx).Err(); err != nil {
		b.admin.Close()
		return nil, fmt.Errorf("realredis: %s: %w", t.URL, err)
	}
	exp, err := newExpiries(b)
	if err == nil {
		b.exp = exp
		err = b.ensureNotifications()
	}
	if err != nil {
		if b.exp != nil {
			b.exp.close()
		}
		b.admin.Close()
		return nil, fmt.Errorf("realredis: %s: %w", t.URL, err)
	}
	return b, nil
}

// SetClock does nothing: a real server keeps its own clock.
func (b *Backend) SetClock(time.Time) {}

// Prefix is the session's key prefix.
func (b *Backend) Prefix() string { return b.prefix }

// Record remembers a key the session named, to list and remove it later,
// and subscribes to its expiry. A backend with a registry first writes the
// key's full name there (before the command that names it reaches the
// server), so that the next start of its instance can remove it if this
// process dies first.
func (b *Backend) Record(key string) {
	b.mu.Lock()
	known := b.keys[key]
	b.keys[key] = true
	b.mu.Unlock()
	if !known && b.registry != "" {
		ctx, cancel := b.ctx()
		defer cancel()
		_ = b.admin.HSet(ctx, b.registry, b.prefix+key, "1").Err() // a failure here fails the command too
	}
	if !known {
		_ = b.exp.subscribe(key) // a failed subscriber fails Expired: the engine then reads states
	}
}

func (b *Backend) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), Timeout)
}

// Read gives a key's state in one round trip: TYPE, GET, HGETALL and
// PEXPIRETIME (Redis 7). The expiry is the first millisecond the key is
// gone: Redis drops a key once its clock is past the expiry time.
//
// A pipeline's commands each look at the clock: a key whose time runs
// out between them is there for TYPE and gone for PEXPIRETIME (-2).
// Such a read is read again, when every command finds the key gone as
// Redis expired it, so its expiry stays due and is reported; taken as a
// key without a TTL, its expiry would never be asked for.
func (b *Backend) Read(key string) (sim.Stored, error) {
	s, gone, err := b.read(key)
	if err == nil && gone {
		s, _, err = b.read(key)
	}
	return s, err
}

// read is one read of Read; gone reports a key that expired between the
// pipeline's commands.
func (b *Backend) read(key string) (_ sim.Stored, gone bool, _ error) {
	ctx, cancel := b.ctx()
	defer cancel()
	k := b.prefix + key
	var typ *redis.StatusCmd
	var get *redis.StringCmd
	var hash *redis.MapStringStringCmd
	var exp *redis.Cmd
	_, err := b.admin.Pipelined(ctx, func(p redis.Pipeliner) error {
		typ = p.Type(ctx, k)
		get = p.Get(ctx, k)
		hash = p.HGetAll(ctx, k)
		exp = p.Do(ctx, "PEXPIRETIME", k)
		return nil
	})
	if err := typ.Err(); err != nil {
		return sim.Stored{}, false, err
	}
	if err := exp.Err(); err != nil {
		return sim.Stored{}, false, err
	}
	_ = err // GET of a hash and HGETALL of a string fail by design
	s := sim.Stored{Type: typ.Val()}
	switch s.Type {
	case "none":
		b.mu.Lock()
		if at, ok := b.deadline[key]; ok && at.After(time.Now()) {
			delete(b.deadline, key) // removed before its time: no expiry to come
		}
		b.mu.Unlock()
		return sim.Stored{}, false, nil
	case "string":
		s.Value = get.Val()
	case "hash":
		m := hash.Val()
		fields := make([]string, 0, len(m))
		for f := range m {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			s.Fields = append(s.Fields, [2]string{f, m[f]})
		}
	}
	ms, _ := exp.Int64()
	if ms == -2 {
		return sim.Stored{}, true, nil
	}
	if ms > 0 {
		s.Expire = time.UnixMilli(ms).Add(Precision)
	}
	b.mu.Lock()
	if s.Expire.IsZero() {
		delete(b.deadline, key)
	} else {
		b.deadline[key] = s.Expire
	}
	b.mu.Unlock()
	return s, false, nil
}

// Keys lists the session's keys that exist, sorted.
func (b *Backend) Keys() ([]string, error) {
	known := b.recorded()
	if len(known) == 0 {
		return nil, nil
	}
	ctx, cancel := b.ctx()
	defer cancel()
	cmds := make([]*redis.IntCmd, len(known))
	if _, err := b.admin.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range known {
			cmds[i] = p.Exists(ctx, b.prefix+k)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var out []string
	for i, k := range known {
		if cmds[i].Val() > 0 {
			out = append(out, k)
		}
	}
	return out, nil
}

func (b *Backend) recorded() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]string, 0, len(b.keys))
	for k := range b.keys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Set writes a string key (initial data).
func (b *Backend) Set(key, value string) error {
	b.Record(key)
	ctx, cancel := b.ctx()
	defer cancel()
	return b.admin.Set(ctx, b.prefix+key, value, 0).Err()
}

// Flush removes every key the session touched, and nothing else.
func (b *Backend) Flush() error {
	known := b.recorded()
	if len(known) == 0 {
		return nil
	}
	ctx, cancel := b.ctx()
	defer cancel()
	keys := make([]string, len(known))
	for i, k := range known {
		keys[i] = b.prefix + k
	}
	if err := b.admin.Del(ctx, keys...).Err(); err != nil {
		return err
	}
	if b.registry != "" {
		return b.admin.HDel(ctx, b.registry, keys...).Err()
	}
	return nil
}

// sweepRegistry removes the keys a registry names, those under prefix
// only, then the registry itself, and counts the keys removed (the
// registry among them): what the runs of an instance that died left
// behind. It needs no SCAN.
func (b *Backend) sweepRegistry(registry, prefix string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*Timeout)
	defer cancel()
	all, err := b.admin.HGetAll(ctx, registry).Result() // HKEYS is not among the ACL user's commands
	if err != nil {
		return 0, err
	}
	names := make([]string, 0, len(all))
	for k := range all {
		names = append(names, k)
	}
	n := 0
	for len(names) > 0 {
		batch := names[:min(len(names), 500)]
		names = names[len(batch):]
		var mine []string
		for _, k := range batch {
			if strings.HasPrefix(k, prefix) {
				mine = append(mine, k)
			}
		}
		if len(mine) > 0 {
			removed, err := b.admin.Del(ctx, mine...).Result()
			if err != nil {
				return n, err
			}
			n += int(removed)
		}
	}
	gone, err := b.admin.Del(ctx, registry).Result()
	return n + int(gone), err
}

// sweep removes every key under prefix with SCAN and UNLINK, and counts
// them.
func (b *Backend) sweep(prefix string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*Timeout)
	defer cancel()
	n := 0
	iter := b.admin.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	var batch []string
	for iter.Next(ctx) {
		batch = append(batch, iter.Val())
		if len(batch) == 500 {
			if err := b.admin.Unlink(ctx, batch...).Err(); err != nil {
				return n, err
			}
			n, batch = n+len(batch), batch[:0]
		}
	}
	if err := iter.Err(); err != nil {
		return n, err
	}
	if len(batch) > 0 {
		if err := b.admin.Unlink(ctx, batch...).Err(); err != nil {
			return n, err
		}
		n += len(batch)
	}
	return n, nil
}

// JumpClock is unavailable: a real server's clock does not jump on request.
func (b *Backend) JumpClock(time.Duration) error { return sim.ErrUnavailable }

// release closes the backend's own connections (admin, expiry subscriber,
// warm clients) and removes nothing: for a backend opened only to look.
func (b *Backend) release() {
	b.markClosing()
	b.exp.close()
	b.closeWarm()
	b.admin.Close()
}

// markClosing says that the connections' errors from now on are the
// backend's own doing.
func (b *Backend) markClosing() {
	b.mu.Lock()
	b.closing = true
	b.mu.Unlock()
}

// Close removes the session's keys and closes the admin connection. A
// node of a Pair stops the pair's processes instead: they were the run's
// alone.
func (b *Backend) Close() error {
	b.markClosing()
	b.exp.close()
	b.closeWarm()
	if b.pair != nil {
		b.pair.Close()
		return b.admin.Close()
	}
	err := b.Flush()
	if cerr := b.admin.Close(); err == nil {
		err = cerr
	}
	return err
}
