package server

import (
	"net/netip"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// limiter counts failed attempts by address, each address in a token
// bucket (golang.org/x/time/rate): missBurst misses at once, then one
// every missEvery. A classroom behind one address (a school's NAT)
// mistyping a code now and then stays well within it; a script guessing
// codes gets one guess a second, about 28 years to find one live class
// among a hundred. Only misses spend (class.Table.Find): a right code, a member's
// token and the teacher's key are looked up first.
//
// An IPv6 address counts by its /64 network, which one host can fill with
// addresses of its own. When the limiter remembers its most addresses
// (missAddrs, after dropping those whose buckets are full again), every
// address it does not know shares one bucket: a flood of addresses then
// guesses as slowly as one address, never faster.
type limiter struct {
	mu     sync.Mutex
	m      map[string]*rate.Limiter
	max    int       // addresses remembered at most (0: missAddrs)
	tidied time.Time // the last tidy: at most one a second, each a walk of the whole table
}

const (
	missBurst = 60
	missEvery = time.Second
	missAddrs = 100000 // addresses remembered at most; beyond, they share overflowKey's bucket
	// overflowKey is the bucket of every address the full limiter does not know.
	overflowKey = "*"
)

// limitKey is the key addr is counted under: an IPv4 address itself, an
// IPv6 address's /64 network.
func limitKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if !a.Is6() {
		return a.String()
	}
	p, err := a.Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// wait is how long addr must wait before its next attempt (0: now).
func (l *limiter) wait(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.m[l.key(addr)]
	if b == nil {
		return 0
	}
	tokens := b.TokensAt(time.Now())
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) * float64(missEvery))
}

// miss spends one of addr's attempts (none left: nothing to spend).
func (l *limiter) miss(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m[limitKey(addr)] == nil && len(l.m) >= l.most() {
		l.tidy()
	}
	k := l.key(addr)
	b := l.m[k]
	if b == nil {
		if l.m == nil {
			l.m = map[string]*rate.Limiter{}
		}
		b = rate.NewLimiter(rate.Every(missEvery), missBurst)
		l.m[k] = b
	}
	b.Allow()
}

// key is the bucket addr spends from: its own, or, when the limiter is
// full and does not know it, the shared overflow bucket. (The overflow
// bucket itself may take the table one past its most.)
func (l *limiter) key(addr string) string {
	k := limitKey(addr)
	if l.m[k] == nil && len(l.m) >= l.most() {
		return overflowKey
	}
	return k
}

// tidy drops the buckets that have filled up again: their addresses have
// nothing left to answer for. It walks the table at most once a second, so
// that a flood of new addresses against a full table costs no more than a
// lookup each.
func (l *limiter) tidy() {
	now := time.Now()
	if now.Sub(l.tidied) < time.Second {
		return
	}
	l.tidied = now
	for k, b := range l.m {
		if b.TokensAt(now) >= missBurst {
			delete(l.m, k)
		}
	}
}

func (l *limiter) most() int {
	if l.max > 0 {
		return l.max
	}
	return missAddrs
}
