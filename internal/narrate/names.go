package narrate

import (
	"fmt"
	"slices"
	"strings"
)

// lockOf names clients' lock on a key: "A's lock on redis", or "A's lock
// (key lock:token) on redis" for a key not named lock.
func lockOf(owners []string, key, node string) string {
	o := strings.Join(owners, "'s and ") + "'s"
	if key == "lock" {
		return fmt.Sprintf("%s lock on %s", o, node)
	}
	return fmt.Sprintf("%s lock (key %s) on %s", o, key, node)
}

// lockOfZh is lockOf in Chinese: "A 在 redis 上的锁".
func lockOfZh(owners []string, key, node string) string {
	o := strings.Join(owners, "、")
	if key == "lock" {
		return fmt.Sprintf(" %s 在 %s 上的锁", o, node)
	}
	return fmt.Sprintf(" %s 在 %s 上的锁（key %s）", o, node, key)
}

// lockName names a lock in a sentence: "the lock", or "the lock
// lock:book" for a lock not named lock.
func lockName(l string) string {
	if l == "" || l == "lock" {
		return "the lock"
	}
	return "the lock " + l
}

// lockNameZh is lockName in Chinese.
func lockNameZh(l string) string {
	if l == "" || l == "lock" {
		return "锁"
	}
	return "锁 " + l
}

func nodes(n int) string {
	if n == 1 {
		return "node"
	}
	return "nodes"
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// clientOf is the client part of who (A of A/req2).
func clientOf(who string) string {
	c, _, _ := strings.Cut(who, "/")
	return c
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
