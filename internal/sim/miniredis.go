package sim

import (
	"net"
	"sort"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Miniredis is the embedded backend: a miniredis instance reached over
// in-memory connections, whose clock the engine sets before every command
// (ClockTTL mode: TTLs follow that clock exactly).
type Miniredis struct {
	m   *miniredis.Miniredis
	now time.Time
}

// NewMiniredis makes an embedded server whose own random choices come from
// seed.
func NewMiniredis(seed int64) *Miniredis {
	m := miniredis.NewMiniRedis()
	m.Seed(int(seed))
	m.ClockTTL(true)
	return &Miniredis{m: m}
}

// Server is the miniredis instance, for setup and tests.
func (b *Miniredis) Server() *miniredis.Miniredis { return b.m }

// Dial opens an in-memory connection.
func (b *Miniredis) Dial() (net.Conn, error) { return b.m.Dial() }

// SetClock sets miniredis' clock.
func (b *Miniredis) SetClock(t time.Time) {
	b.m.SetTime(t)
	b.now = t
}

// Prefix is empty: the embedded server holds nothing else.
func (b *Miniredis) Prefix() string { return "" }

// Read gives a key's state.
func (b *Miniredis) Read(key string) (Stored, error) {
	s := Stored{Type: b.m.Type(key)}
	switch s.Type {
	case "":
		return s, nil
	case "string":
		s.Value, _ = b.m.Get(key)
	case "hash":
		fields, _ := b.m.HKeys(key) // sorted
		for _, f := range fields {
			s.Fields = append(s.Fields, [2]string{f, b.m.HGet(key, f)})
		}
	}
	if ttl := b.m.TTL(key); ttl > 0 {
		s.Expire = b.now.Add(ttl)
	}
	return s, nil
}

// Keys lists every key, sorted.
func (b *Miniredis) Keys() ([]string, error) {
	ks := b.m.Keys()
	sort.Strings(ks)
	return ks, nil
}

// Set writes a string key.
func (b *Miniredis) Set(key, value string) error { return b.m.Set(key, value) }

// Flush removes every key.
func (b *Miniredis) Flush() error {
	b.m.FlushAll()
	return nil
}

// JumpClock moves the clock by d. miniredis keeps TTLs as remaining
// durations that a forward clock consumes but a backward one does not give
// back, so a backward jump gives every TTL the time back by hand: every key
// keeps its absolute expiry time, as on a real server.
func (b *Miniredis) JumpClock(d time.Duration) error {
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
func (b *Miniredis) Close() error {
	b.m.Close()
	return nil
}
