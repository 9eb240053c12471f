// Package redsync provides a Redis-based distributed mutual exclusion lock implementation as described in the post http://redis.io/topics/distlock.
//
// Values containing the types defined in this package should not be copied.
package redsync
