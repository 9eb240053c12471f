package lock

import (
	"context"
	"github.com/lockstep/lockstep/internal/fact"
	"time"
)

func init() {
	register(typed(&Info{ID: "redlock", Row: 15, Title: "Redlock: the same key on a majority of N independent masters", Seed: "000 ⑦, 004 RedLock",
		Flaw:  "survives a dead node; but a node that restarts without its data, a node clock jump or a pause after acquiring lets two clients in",
		Nodes: 3, Quorum: redlockQuorum,
		FlawAfter: []string{"SET"}}, // a vote, before the quorum is counted and checked against the validity
		DefaultRedlockOptions, NewRedlock))
}

// redlockQuorum is a majority of the masters, or the quorum the options
// set (at most every master).
func redlockQuorum(o Options, masters int) int {
	if x, ok := o.(*RedlockOptions); ok && x.Quorum > 0 {
		return min(x.Quorum, masters)
	}
	return masters/2 + 1
}

// RedlockOptions are the options of row 15, with the defaults of
// redis.io/topics/distlock and go-redsync. Nil options are
// DefaultRedlockOptions; a field set to 0 means what its comment says.
type RedlockOptions struct {
	// Key is the lock's key, the same on every master (default "lock").
	Key string
	// TTL is the lock's time to live on each master, PX (default 10s).
	TTL time.Duration
	// DriftFactor is the clock drift allowance: drift = TTL*DriftFactor +
	// 2ms (default 0.01).
	DriftFactor float64
	// Quorum is the votes needed to hold the lock (0, the default: a
	// majority, N/2+1; at most N). Fewer than a majority lets two clients
	// win at once.
	Quorum int
	// Backoff is the wait before another attempt after a failed vote
	// (default: 50ms plus a jitter in [0, 200ms), so that split votes do
	// not repeat; no acquire timeout).
	Backoff
	// Tries is the attempts before giving up with ErrNotAcquired (default
	// 32; 0: never give up).
	Tries int
}

// DefaultRedlockOptions are the documented defaults of RedlockOptions.
func DefaultRedlockOptions() *RedlockOptions {
	return &RedlockOptions{Key: "lock", TTL: 10 * time.Second, DriftFactor: 0.01,
		Backoff: Backoff{Retry: 50 * time.Millisecond, RetryJitter: 200 * time.Millisecond}, Tries: 32}
}

func (o *RedlockOptions) fields() []field {
	return []field{
		{"key", &o.Key, "the lock's key, the same on every master"},
		{"ttl", &o.TTL, "the lock's time to live on each master (PX)"},
		{"drift_factor", &o.DriftFactor, "clock drift allowance: drift = ttl * drift_factor + 2ms"},
		{"quorum", &o.Quorum, "votes needed to hold the lock (0: a majority, N/2+1); fewer than a majority lets two clients win at once"},
		{"retry", &o.Retry, "wait before another attempt after a failed vote"},
		{"retry_jitter", &o.RetryJitter, "extra random wait in [0, retry_jitter), so that split votes do not repeat"},
		{"tries", &o.Tries, "attempts before giving up (0: never give up)"},
		{"acquire_timeout", &o.AcquireTimeout, "give up acquiring after this long (0: never)"},
	}
}

// Redlock is row 15 (seeds 000 ⑦, 004 RedLock; redis.io/topics/distlock):
// N independent masters, no replication. To acquire, the client notes the
// time on its own clock, sends SET key value NX PX ttl to every master at
// once (go-redsync asks them concurrently; here on the Config's Threads,
// or in turn without them), and counts the votes when every master has
// answered or timed out: the elapsed time is the slowest round trip. It holds the lock only if a majority
// (N/2+1, or Quorum) said yes and time is left:
//
//	validity = TTL - elapsed - drift, drift = TTL*DriftFactor + 2ms
//
// (go-redsync: until := now.Add(expiry - now.Sub(start) - drift)). When
// either fails it releases on every master, even those that said no, waits
// retry plus a random jitter and tries again. Release is the Lua
// compare-and-delete on every master, again all at once.
//
// The lesson: it survives one dead master; but a master that restarts
// without its data, or whose clock jumps ahead, forgets a vote, and a
// second client can form its own majority. A pause while replies are in
// flight is caught by the validity check; a pause after it is not.
type Redlock struct {
	c     Config
	o     *RedlockOptions
	until time.Time
	held  bool // a lease won by Lock and not yet given back by Unlock
}

// NewRedlock builds the lock over c.Nodes (nil options: the defaults).
func NewRedlock(c Config, o *RedlockOptions) Locker {
	if o == nil {
		o = DefaultRedlockOptions()
	}
	return &Redlock{c: c, o: o}
}

// Until is when the current lock's validity runs out, on the client's clock.
func (l *Redlock) Until() time.Time { return l.until }

// Lock runs votes until one wins a majority with validity left.
func (l *Redlock) Lock(ctx context.Context) error {
	c, o := &l.c, l.o
	nodes := l.c.Nodes
	quorum := len(nodes)/2 + 1
	if q := o.Quorum; q > 0 {
		quorum = min(q, len(nodes))
	}
	key, ttl := o.Key, o.TTL
	drift := time.Duration(float64(ttl)*o.DriftFactor) + 2*time.Millisecond
	begin := c.Clock.Now()
	for try := 1; ; try++ {
		start := c.Clock.Now()
		said := make([]bool, len(nodes)) // each master's vote, asked of all at once
		if err := c.each(ctx, len(nodes), func(ctx context.Context, i int) {
			ok, err := nodes[i].SetNX(ctx, key, c.Owner, ttl).Result()
			said[i] = err == nil && ok
		}); err != nil {
			return err
		}
		var yes []Redis // the masters that voted for us
		for i, r := range nodes {
			if said[i] {
				yes = append(yes, r)
			}
		}
		votes, elapsed := len(yes), c.Clock.Now().Sub(start)
		validity := ttl - elapsed - drift
		vote := &fact.Votes{Yes: votes, Of: len(nodes), Need: quorum, Elapsed: elapsed, Validity: validity, TTL: ttl, Drift: drift}
		if votes >= quorum && validity > 0 {
			l.until, l.held = start.Add(validity), true
			c.mark("quorum", &fact.Fact{Key: fact.Quorum, Votes: vote})
			return nil
		}
		// A failed vote releases on every master, even those that said no
		// (a yes may have been lost on the way back) — unless this owner
		// already holds a lease: its value on those masters is that lease,
		// and Redlock is not re-entrant, so it gives back only this vote's
		// yeses.
		vote.ReleasedOn = fact.ReleaseAll
		release := nodes
		if l.held {
			vote.ReleasedOn, release = fact.ReleaseYes, yes
		}
		if votes >= quorum {
			c.mark("too-late", &fact.Fact{Key: fact.TooLate, Votes: vote})
		} else {
			c.mark("no-quorum", &fact.Fact{Key: fact.NoQuorum, Votes: vote})
		}
		l.release(ctx, release)
		if n := o.Tries; n > 0 && try >= n {
			return ErrNotAcquired
		}
		if err := sleepRetry(ctx, c, o.Backoff, begin); err != nil {
			return err
		}
	}
}

// release runs compare-and-delete on the given masters, all at once, and
// counts the keys it deleted.
func (l *Redlock) release(ctx context.Context, nodes []Redis) int {
	deleted := make([]bool, len(nodes))
	_ = l.c.each(ctx, len(nodes), func(ctx context.Context, i int) {
		ok, err := deleteIfOwner(ctx, nodes[i], l.o.Key, l.c.Owner)
		deleted[i] = err == nil && ok
	})
	n := 0
	for _, d := range deleted {
		if d {
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
