package lock

import "time"

// secondsTTL is options whose TTL the algorithm's commands set in whole
// seconds (EXPIRE): ttlRuns is the TTL they really set.
type secondsTTL interface {
	ttlRuns() time.Duration
}

// RoundedTTL reports the TTL an algorithm's options say and the one its
// commands really set, when the two differ: a TTL that is not a whole
// number of seconds, on an algorithm that sets it with EXPIRE. ok is false
// when the commands set the TTL as written.
func RoundedTTL(o Options) (written, runs time.Duration, ok bool) {
	s, is := o.(secondsTTL)
	if !is {
		return 0, 0, false
	}
	written, runs = durationField(o, "ttl"), s.ttlRuns()
	return written, runs, written != runs
}

// durationField is the duration field of o bound to parameter name (0
// when it has none).
func durationField(o Options, name string) time.Duration {
	for _, f := range o.fields() {
		if d, ok := f.ptr.(*time.Duration); ok && f.name == name {
			return *d
		}
	}
	return 0
}

// ttlRuns is the TTL the re-entrant scripts set: 000's take seconds
// (EXPIRE), rounded up; 002's take milliseconds (PEXPIRE).
func (o *ReentrantOptions) ttlRuns() time.Duration {
	if o.Script == Script002 {
		return o.TTL
	}
	return (o.TTL + time.Second - 1) / time.Second * time.Second
}

// ttlRuns is the TTL go-redis's EXPIRE sets: whole seconds, truncated, and
// 1s for anything shorter than a second.
func (o *SetNXThenExpireOptions) ttlRuns() time.Duration {
	if o.TTL > 0 && o.TTL < time.Second {
		return time.Second
	}
	return o.TTL / time.Second * time.Second
}
