package server

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// latency is a histogram of how long the server takes over requests, from
// the moment a message is read off its socket to the moment its answer is
// queued for the writer: the server's share of a round trip, without the
// network or the browser. It is safe for concurrent use and takes no lock;
// /healthz reports its quantiles, and the load test prints them beside the
// round trips it measures.
//
// Buckets are four per power of two of microseconds (each at most a
// quarter wide), up to hours; a quantile is given as its bucket's upper
// bound.
type latency struct {
	n       atomic.Int64
	buckets [latencyBuckets]atomic.Int64
}

const latencyBuckets = 4 * 32

// bucketOf gives the bucket of d. With x = d in microseconds + 4, bucket
// 4k+s holds the x in [2^k (4+s), 2^k (5+s)).
func bucketOf(d time.Duration) int {
	x := uint64(max(d.Microseconds(), 0)) + 4
	exp := bits.Len64(x) - 1 // x in [2^exp, 2^(exp+1)), exp >= 2
	sub := int(x>>(exp-2)) & 3
	return min((exp-2)*4+sub, latencyBuckets-1)
}

// upper is the longest duration in bucket b.
func upper(b int) time.Duration {
	k, s := uint64(b/4), uint64(b%4)
	return time.Duration((uint64(1)<<k)*(5+s)-1-4) * time.Microsecond
}

func (l *latency) observe(d time.Duration) {
	l.buckets[bucketOf(d)].Add(1)
	l.n.Add(1)
}

// quantile gives the duration under which a fraction q of the requests
// observed so far took, or 0 before any.
func (l *latency) quantile(q float64) time.Duration {
	n := l.n.Load()
	if n == 0 {
		return 0
	}
	rank := min(int64(q*float64(n)), n-1)
	seen := int64(0)
	for b := range l.buckets {
		seen += l.buckets[b].Load()
		if seen > rank {
			return upper(b)
		}
	}
	return upper(latencyBuckets - 1)
}
