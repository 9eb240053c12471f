package lesson

import (
	"context"
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"maps"
	"sort"

	"github.com/redis/go-redis/v9"

	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// MarketKey is the set of listed items (seed 003's "market:"). 003 keeps a
// sorted set by price; a plain set is used because embedded miniredis
// v2.40 does not count a ZREM or an HDEL that leaves members behind as a
// change of the key, so a WATCH on a sorted set or hash misses other
// buyers' purchases (SREM is counted).
const MarketKey = "market:"

// The market tasks of seed 003's contention lab:
//
//	list      a seller puts one new item on the market (SADD)
//	buy       a buyer takes the first listed item (SMEMBERS, then SREM); under
//	          watch-multi-exec it runs as WATCH market: ... MULTI SREM EXEC,
//	          under a lock algorithm inside the one market-wide lock
//	buy-item  the fine-grained variant: read the first item, then lock only
//	          that item (lock:<item>) around its SREM
//
// Each outcome is a mark: listed, bought, missed (someone else bought the
// item first), empty (nothing listed); WATCH conflicts are retry marks.

// listItem is a seller's request: SADD market: item.
func listItem(ctx context.Context, p *sim.Proc, c scenario.Client, node string, n int) error {
	item := fmt.Sprintf("%s-%d", p.Name(), n)
	if err := p.Redis(node).SAdd(ctx, MarketKey, item).Err(); err != nil {
		return err
	}
	p.Mark("listed", &fact.Fact{Key: fact.ItemNamed, Item: item})
	return p.Sleep(ctx, c.Work.D())
}

// firstItem reads the first listed item, or "" when the market is empty.
func firstItem(ctx context.Context, r redis.Cmdable) (string, error) {
	items, err := r.SMembers(ctx, MarketKey).Result()
	if err != nil || len(items) == 0 {
		return "", err
	}
	sort.Strings(items)
	return items[0], nil
}

// buyItem is a buyer's request inside a market-wide lock (or none).
func buyItem(ctx context.Context, p *sim.Proc, node string) error {
	r := p.Redis(node)
	item, err := firstItem(ctx, r)
	if err != nil {
		return err
	}
	if item == "" {
		p.Mark("empty", fact.New(fact.NothingListed))
		return errEmpty
	}
	return removeItem(ctx, p, r, item)
}

// errEmpty tells the request that the market was empty: it waits its work
// time after releasing the lock, not inside it.
var errEmpty = errors.New("market empty")

// removeItem is the purchase itself: SREM, which only one buyer can win.
func removeItem(ctx context.Context, p *sim.Proc, r redis.Cmdable, item string) error {
	n, err := r.SRem(ctx, MarketKey, item).Result()
	if err != nil {
		return err
	}
	if n == 0 {
		p.Mark("missed", &fact.Fact{Key: fact.AlreadySold, Item: item})
		return nil
	}
	p.Mark("bought", &fact.Fact{Key: fact.ItemNamed, Item: item})
	return nil
}

// buyWatched is the buyer's request under WATCH (seed 003's purchaseItem).
func buyWatched(ctx context.Context, p *sim.Proc, c scenario.Client, opt lock.Optimistic) error {
	item := ""
	err := opt.Transact(ctx, []string{MarketKey}, func(tx *redis.Tx) (func(redis.Pipeliner) error, error) {
		var err error
		if item, err = firstItem(ctx, tx); err != nil || item == "" {
			return nil, err
		}
		return func(pipe redis.Pipeliner) error { pipe.SRem(ctx, MarketKey, item); return nil }, nil
	})
	switch {
	case errors.Is(err, lock.ErrTooManyRetries):
		return nil
	case err != nil:
		return err
	case item == "":
		p.Mark("empty", fact.New(fact.NothingListed))
		return p.Sleep(ctx, c.Work.D())
	}
	p.Mark("bought", &fact.Fact{Key: fact.ItemNamed, Item: item})
	return nil
}

// buyItemLocked is the fine-grained buyer: it locks only the item it is
// about to buy, with the client's algorithm on the key lock:<item>.
func (in *instance) buyItemLocked(ctx context.Context, thread string) error {
	cl, p := in.cl, in.p
	r := p.Redis(cl.node)
	item, err := firstItem(ctx, r)
	if err != nil {
		return err
	}
	if item == "" {
		p.Mark("empty", fact.New(fact.NothingListed))
		return p.Sleep(ctx, cl.c.Work.D())
	}
	res := "lock:" + item
	opts := cl.opts
	if _, ok := cl.algo.Param("key"); ok {
		raw := maps.Clone(cl.c.Params)
		if raw == nil {
			raw = map[string]any{}
		}
		raw["key"] = res
		if opts, err = cl.algo.Decode(raw); err != nil {
			return err
		}
	}
	l := cl.algo.New(lockConfig(p, cl.node, opts, res, in.owner(thread)))
	if err := l.Lock(ctx); err != nil {
		if errors.Is(err, lock.ErrNotAcquired) {
			p.MarkLock(sim.MarkGaveUp, res, &fact.Fact{Key: fact.CouldNotLock, Item: item})
			return nil
		}
		return err
	}
	if err := removeItem(ctx, p, r, item); err != nil {
		return err
	}
	if err := l.Unlock(ctx); err != nil && !errors.Is(err, lock.ErrNotHeld) {
		p.MarkLock(sim.MarkReleaseFailed, res, fact.Error(err))
	}
	return nil
}
