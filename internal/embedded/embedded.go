package embedded

import (
	"errors"
	"net"
	"sort"
	"time"

	"github.com/alicebob/miniredis/v2"
	lua "github.com/yuin/gopher-lua"

	"github.com/lockstep/lockstep/internal/sim"
)

// miniredis's Lua interpreters (kept between script calls: see
// third_party/miniredis/PATCH.md) have gopher-lua's package defaults for
// stacks unless told otherwise: 5,120 values and 256 frames, 100 KiB to
// make, zero and hold each. Lockstep's scripts (internal/lock/scripts) are
// a few lines each and need a few dozen values and frames, so the
// interpreters are made smaller, before any is made: a script that
// outgrows them fails with a Lua error ("registry overflow", "stack
// overflow"), as a script outgrowing Redis's own stack does. Real Redis
// servers are not concerned.
const (
	luaValues = 1024 // the value stack of a script call (gopher-lua: RegistrySize)
	luaFrames = 64   // nested function calls (gopher-lua: CallStackSize)
)

func init() {
	lua.RegistrySize = luaValues
	lua.CallStackSize = luaFrames
}

// Backend is the embedded backend: a miniredis instance reached over
// in-memory connections that run each command on the caller's goroutine
// (conn), whose clock the engine sets before every command (ClockTTL mode:
// TTLs follow that clock exactly).
type Backend struct {
	m      *miniredis.Miniredis
	now    time.Time
	closed bool
}

var _ sim.Backend = (*Backend)(nil)

// New makes an embedded server whose own random choices come from seed
// (the world's seed, so that a run depends on nothing else).
func New(seed int64) *Backend {
	m := miniredis.NewMiniRedis()
	m.Seed(int(seed))
	m.ClockTTL(true)
	// miniredis makes its command server on its first connection: make it
	// now, so that conn can dispatch to it.
	if c, err := m.Dial(); err == nil {
		c.Close()
	}
	return &Backend{m: m}
}

// Server is the miniredis instance, for setup and tests.
func (b *Backend) Server() *miniredis.Miniredis { return b.m }

// Dial opens an in-memory connection (conn).
func (b *Backend) Dial() (net.Conn, error) {
	if b.closed {
		return nil, errClosed
	}
	return newConn(b), nil
}

// SetClock sets miniredis' clock.
func (b *Backend) SetClock(t time.Time) {
	b.m.SetTime(t)
	b.now = t
}

// Prefix is empty: the embedded server holds nothing else.
func (b *Backend) Prefix() string { return "" }

// Read gives a key's state. The engine reads the keys of every command
// after it: the database is taken once (miniredis's Miniredis-level
// accessors each take it again, with its lock and its clock's tick) and
// asked for the type, value and TTL, all at the same clock (nothing runs
// in between).
func (b *Backend) Read(key string) (sim.Stored, error) {
	db := b.m.DB(0) // what b.m.Type and the others read: Lockstep never calls b.m.Select
	var s sim.Stored
	v, err := db.Get(key) // a lock's key is a string: asked first, its type needs no question of its own
	switch {
	case err == nil:
		s.Type, s.Value = "string", v
	case errors.Is(err, miniredis.ErrKeyNotFound):
		return s, nil
	default:
		s.Type = db.Type(key)
	}
	switch s.Type {
	case "":
		return s, nil
	case "hash":
		fields, _ := db.HKeys(key) // sorted
		for _, f := range fields {
			s.Fields = append(s.Fields, [2]string{f, db.HGet(key, f)})
		}
	}
	if ttl := db.TTL(key); ttl > 0 {
		s.Expire = b.now.Add(ttl)
	}
	return s, nil
}

// Keys lists every key, sorted.
func (b *Backend) Keys() ([]string, error) {
	ks := b.m.Keys()
	sort.Strings(ks)
	return ks, nil
}

// Set writes a string key.
func (b *Backend) Set(key, value string) error { return b.m.Set(key, value) }

// Flush removes every key.
func (b *Backend) Flush() error {
	b.m.FlushAll()
	return nil
}

// JumpClock moves the clock by d. miniredis keeps TTLs as remaining
// durations that a forward clock consumes but a backward one does not give
// back, so a backward jump gives every TTL the time back by hand: every key
// keeps its absolute expiry time, as on a real server.
func (b *Backend) JumpClock(d time.Duration) error {
	if d < 0 {
		for _, k := range b.m.Keys() {
			if ttl := b.m.TTL(k); ttl > 0 {
				b.m.SetTTL(k, ttl-d)
			}
		}
	}
	b.SetClock(b.now.Add(d))
	return nil
}

// Close stops the server.
func (b *Backend) Close() error {
	b.closed = true
	b.m.Close()
	return nil
}
