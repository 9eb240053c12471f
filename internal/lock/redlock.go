package lock

import (
	"context"
	"fmt"
	"time"
)

func init() {
	register(&Info{ID: "redlock", Row: 15, Title: "Redlock: the same key on a majority of N independent masters", Seed: "000 ⑦, 004 RedLock",
		Flaw:   "survives a dead node; but a node that restarts without its data, a node clock jump or a pause after acquiring lets two clients in",
		Params: redlockParams(), Nodes: 3, New: NewRedlock})
}

// redlockParams are Redlock's parameters (defaults from redis.io/topics/distlock
// and go-redsync).
func redlockParams() []Param {
	return []Param{
		{Name: "key", Kind: Str, Default: "lock", Doc: "the lock's key, the same on every master"},
		{Name: "ttl", Kind: Dur, Default: 10 * time.Second, Doc: "the lock's time to live on each master (PX)"},
		{Name: "drift_factor", Kind: Float, Default: 0.01, Doc: "clock drift allowance: drift = ttl * drift_factor + 2ms"},
		{Name: "quorum", Kind: Int, Default: 0, Doc: "votes needed to hold the lock (0: a majority, N/2+1); fewer than a majority lets two clients win at once"},
		{Name: "retry", Kind: Dur, Default: 50 * time.Millisecond, Doc: "wait before another attempt after a failed vote"},
		{Name: "retry_jitter", Kind: Dur, Default: 200 * time.Millisecond, Doc: "extra random wait in [0, retry_jitter), so that split votes do not repeat"},
		{Name: "tries", Kind: Int, Default: 32, Doc: "attempts before giving up (0: never give up)"},
		{Name: "acquire_timeout", Kind: Dur, Default: time.Duration(0), Doc: "give up acquiring after this long (0: never)"},
	}
}

// Redlock is row 15 (seeds 000 ⑦, 004 RedLock; redis.io/topics/distlock):
// N independent masters, no replication. To acquire, the client notes the
// time on its own clock, sends SET key value NX PX ttl to every master in
// turn, and counts the votes. It holds the lock only if a majority
// (N/2+1) said yes and time is left:
//
//	validity = ttl - elapsed - drift, drift = ttl*drift_factor + 2ms
//
// (go-redsync: until := now.Add(expiry - now.Sub(start) - drift)). When
// either fails it releases on every master, even those that said no, waits
// retry plus a random jitter and tries again. Release is the Lua
// compare-and-delete on every master.
//
// The lesson: it survives one dead master; but a master that restarts
// without its data, or whose clock jumps ahead, forgets a vote, and a
// second client can form its own majority. A pause while replies are in
// flight is caught by the validity check; a pause after it is not.
type Redlock struct {
	c     Config
	until time.Time
	held  bool // a lease won by Lock and not yet given back by Unlock
}

// NewRedlock builds the lock over c.Nodes.
func NewRedlock(c Config) Locker { return &Redlock{c: c} }

// Until is when the current lock's validity runs out, on the client's clock.
func (l *Redlock) Until() time.Time { return l.until }

// Lock runs votes until one wins a majority with validity left.
func (l *Redlock) Lock(ctx context.Context) error {
	c := &l.c
	nodes := l.c.Nodes
	quorum := len(nodes)/2 + 1
	if q := c.Params.Int("quorum"); q > 0 {
		quorum = min(q, len(nodes))
	}
	key, ttl := c.Params.String("key"), c.Params.Duration("ttl")
	drift := time.Duration(float64(ttl)*c.Params.Float("drift_factor")) + 2*time.Millisecond
	begin := c.Clock.Now()
	for try := 1; ; try++ {
		start := c.Clock.Now()
		var yes []Redis // the masters that voted for us
		for _, r := range nodes {
			ok, err := r.SetNX(ctx, key, c.Owner, ttl).Result()
			if err == nil && ok {
				yes = append(yes, r)
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		votes, elapsed := len(yes), c.Clock.Now().Sub(start)
		validity := ttl - elapsed - drift
		vote := fmt.Sprintf("%d/%d in %s, validity %s = ttl %s - elapsed %s - drift %s", votes, len(nodes), elapsed, validity, ttl, elapsed, drift)
		if votes >= quorum && validity > 0 {
			l.until, l.held = start.Add(validity), true
			c.mark("quorum", vote)
			return nil
		}
		// A failed vote releases on every master, even those that said no
		// (a yes may have been lost on the way back) — unless this owner
		// already holds a lease: its value on those masters is that lease,
		// and Redlock is not re-entrant, so it gives back only this vote's
		// yeses.
		where, release := "every master", nodes
		if l.held {
			where, release = "the masters that said yes (a lease of ours is still held)", yes
		}
		if votes >= quorum {
			c.mark("too-late", vote+": no time left, releasing on "+where)
		} else {
			c.mark("no-quorum", fmt.Sprintf("%d/%d in %s, need %d: releasing on %s", votes, len(nodes), elapsed, quorum, where))
		}
		l.release(ctx, release)
		if n := c.Params.Int("tries"); n > 0 && try >= n {
			return ErrNotAcquired
		}
		if err := sleepRetry(ctx, c, backoffParams(c), begin); err != nil {
			return err
		}
	}
}

// release runs compare-and-delete on the given masters and counts the
// keys it deleted.
func (l *Redlock) release(ctx context.Context, nodes []Redis) int {
	n := 0
	for _, r := range nodes {
		if deleted, err := deleteIfOwner(ctx, r, l.c.Params.String("key"), l.c.Owner); err == nil && deleted {
			n++
		}
	}
	return n
}

// Unlock releases on every master; ErrNotHeld if no master still held our
// value.
func (l *Redlock) Unlock(ctx context.Context) error {
	l.held = false
	if l.release(ctx, l.c.Nodes) == 0 {
		return ErrNotHeld
	}
	return nil
}
