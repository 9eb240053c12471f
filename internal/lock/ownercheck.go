package lock

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"
)

func init() {
	register(typed(&Info{ID: "owner-check-get-del", Row: 8, Title: "SET NX PX uuid, released by GET == uuid then DEL", Seed: "000 ③, 004",
		Flaw:      "the check and the delete are two commands: the lock can expire and change hands between them",
		FlawAfter: []string{"GET"}},
		DefaultSetNXOptions, NewOwnerCheckGetDel))
	register(typed(&Info{ID: "watch-release", Row: 10, Title: "SET NX PX uuid, released by WATCH / GET / MULTI DEL EXEC", Seed: "003 releaseLock",
		Flaw:      "safe release by transaction: if the lock changes hands after the GET, EXEC does nothing",
		FlawAfter: []string{"GET"}},
		DefaultSetNXOptions, NewWatchRelease))
}

// OwnerCheckGetDel is row 8 (seeds 000 ③, 004): SET lock uuid NX PX ttl to
// acquire; to release, GET lock and, if it still holds our uuid, DEL lock.
// The check and the delete are two round trips: if the lock expires right
// after the GET and another client takes it, the DEL removes that client's
// lock — a foreign unlock, only narrower than row 7's.
type OwnerCheckGetDel struct{ setNXLock }

// NewOwnerCheckGetDel builds the lock (nil options: the defaults).
func NewOwnerCheckGetDel(c Config, o *SetNXOptions) Locker {
	return &OwnerCheckGetDel{newSetNXLock(c, o)}
}

// Unlock is GET lock; if it equals our uuid, DEL lock.
func (l *OwnerCheckGetDel) Unlock(ctx context.Context) error {
	key := l.o.Key
	v, err := l.c.Redis.Get(ctx, key).Result()
	if errors.Is(err, redis.Nil) || err == nil && v != l.c.Owner {
		return ErrNotHeld
	}
	if err != nil {
		return err
	}
	return l.c.Redis.Del(ctx, key).Err()
}

// WatchRelease is row 10 (seed 003 releaseLock): SET NX PX uuid to acquire;
// to release, WATCH lock; GET lock; if it holds our uuid, MULTI; DEL lock;
// EXEC, else UNWATCH. If the lock expires and changes hands after the GET,
// the watched key has changed and EXEC answers nil: the DEL never runs.
type WatchRelease struct{ setNXLock }

// NewWatchRelease builds the lock (nil options: the defaults).
func NewWatchRelease(c Config, o *SetNXOptions) Locker {
	return &WatchRelease{newSetNXLock(c, o)}
}

// Unlock is 003's releaseLock: the DEL is committed only if nobody touched
// the lock since the WATCH.
func (l *WatchRelease) Unlock(ctx context.Context) error {
	key := l.o.Key
	err := l.c.Redis.Watch(ctx, func(tx *redis.Tx) error {
		v, err := tx.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) || err == nil && v != l.c.Owner {
			return ErrNotHeld // Watch's Close sends UNWATCH
		}
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error { p.Del(ctx, key); return nil })
		return err
	}, key)
	if errors.Is(err, redis.TxFailedErr) {
		return ErrNotHeld
	}
	return err
}
