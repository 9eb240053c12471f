package server

import (
	"testing"
	"time"
)

// Every duration falls in a bucket whose upper bound is at least the
// duration and at most a quarter over it (and 4µs),
// and later buckets hold longer durations.
func TestLatencyBuckets(t *testing.T) {
	prev := -1
	for us := int64(0); us < 5_000_000; us += 1 + us/97 {
		d := time.Duration(us) * time.Microsecond
		b := bucketOf(d)
		if b < prev {
			t.Fatalf("%v: bucket %d after %d", d, b, prev)
		}
		prev = b
		if up := upper(b); up < d || up > d*5/4+4*time.Microsecond {
			t.Fatalf("%v: bucket %d's upper bound is %v", d, b, up)
		}
		if b > 0 && upper(b-1) >= d {
			t.Fatalf("%v: the bucket before (%d) reaches %v", d, b-1, upper(b-1))
		}
	}
	if b := bucketOf(200 * time.Hour); b != latencyBuckets-1 {
		t.Errorf("200h: bucket %d, want the last", b)
	}
}

// A thousand requests, 1% of them slow: p50 is a fast one, p99 the edge
// of the slow ones, the maximum the slowest.
func TestLatencyQuantiles(t *testing.T) {
	var l latency
	if q := l.quantile(0.99); q != 0 {
		t.Errorf("empty: p99 %v, want 0", q)
	}
	for i := range 1000 {
		d := 300 * time.Microsecond
		if i%100 == 0 {
			d = 40 * time.Millisecond
		}
		l.observe(d)
	}
	near := func(got, want time.Duration) bool { return got >= want && got <= want*5/4 }
	if p50 := l.quantile(0.5); !near(p50, 300*time.Microsecond) {
		t.Errorf("p50 %v, want about 300µs", p50)
	}
	if p98 := l.quantile(0.98); !near(p98, 300*time.Microsecond) {
		t.Errorf("p98 %v, want about 300µs", p98)
	}
	if p99 := l.quantile(0.99); !near(p99, 40*time.Millisecond) {
		t.Errorf("p99 %v, want about 40ms", p99)
	}
	if top := l.quantile(1); !near(top, 40*time.Millisecond) {
		t.Errorf("max %v, want about 40ms", top)
	}
}
