package zookeeper

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// A server pause (SIGSTOP of the JVM) longer than the sessions, with A
// holding the lock and B waiting on A's node. Measured before it was
// written (500 ms sessions, 2 s and 1 s pauses, five runs each): on
// SIGCONT the session tracker, whose clock ran on through the stop, finds
// every deadline passed and expires the sessions at once, the healthy
// holder's with the waiter's (8 runs of 10); or the clients' pings and
// reconnections, queued in the kernel while the JVM was stopped, reach
// the server first and touch the sessions, and both live on (2 of 10). It
// is a race between two of the server's threads, so the test holds only
// what both outcomes share: the lock is never handed on to the waiter
// while the holder's session lives. Either both sessions expired (A's
// node gone, B's Lock failed with session expired, A still believing it
// holds: the recipe tells it nothing), or neither did (A's node heads the
// queue, B waits). Rarely the race splits (1 of 36 runs measured, in the
// lesson zookeeper-server-pause): one session expires and the other lives
// on. Then the survivor's view must be whole: if A's expired, A's node is
// gone and B's Lock took the lock (B's node alone); if B's expired, A's
// node alone is left and B's Lock failed.
func TestAServerPauseExpiresEveryoneOrNoOne(t *testing.T) {
	const path = "/lockstep/server-pause"
	ca, aEvents := sessionEvents(t, 500*time.Millisecond, nil)
	cb, bEvents := sessionEvents(t, 500*time.Millisecond, nil)
	a, b := NewMutex(ca, path, true), NewMutex(cb, path, true)
	within(t, locked(a), 5*time.Second, "A's lock")
	bLock := locked(b)
	still(t, bLock, 200*time.Millisecond, "B waits while A holds")
	aExpired, bExpired := expiry(aEvents), expiry(bEvents)
	if err := server.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	if err := server.Resume(); err != nil {
		t.Fatal(err)
	}
	resumed := time.Now()
	var bErr error
	answered := false // B's Lock returned (only then is b.Node B's to read)
	select {
	case bErr = <-bLock:
		answered = true
	case <-time.After(3 * time.Second):
	}
	observer := session(t, 2*time.Second, nil)
	kids, _, err := observer.Children(path)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case len(kids) == 0:
		if !errors.Is(bErr, zk.ErrSessionExpired) || !heard(aExpired) || !heard(bExpired) {
			t.Fatalf("A's node is gone: want both sessions expired and B's Lock failed; B's Lock: %v", bErr)
		}
		if a.Node == "" {
			t.Fatal("A does not believe it holds the lock: the recipe gave it no signal to learn that")
		}
		t.Logf("every session expired on the resume; B's Lock failed %v after it", time.Since(resumed).Round(time.Millisecond))
	case len(kids) == 2 && bErr == nil && !closed(aExpired) && !closed(bExpired):
		if name(a.Node) != kids[0] && name(a.Node) != kids[1] {
			t.Fatalf("children %v: want A's node %s and B's", kids, a.Node)
		}
		t.Log("both sessions lived on: the queued pings and reconnections reached the server first")
	case len(kids) == 1 && closed(aExpired) && !closed(bExpired) && answered && bErr == nil && kids[0] == name(b.Node):
		t.Log("the race split: A's session expired, B's lived on and B took the lock while A still believes it holds it")
	case len(kids) == 1 && !closed(aExpired) && closed(bExpired) && errors.Is(bErr, zk.ErrSessionExpired) && kids[0] == name(a.Node):
		t.Log("the race split: B's session expired and its Lock failed, A's lived on and A holds")
	default:
		t.Fatalf("children %v, B's Lock %v, A expired %v, B expired %v: want both sessions expired, neither, or a split whose survivor holds alone", kids, bErr, closed(aExpired), closed(bExpired))
	}
}

// expiry is closed when the client hears that its session expired.
func expiry(events <-chan zk.Event) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		for ev := range events {
			if ev.State == zk.StateExpired {
				close(ch)
				break
			}
		}
		for range events {
		}
	}()
	return ch
}

// heard waits up to 2 s for a client to hear that its session expired
// (each hears it on its own reconnection).
func heard(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(2 * time.Second):
		return false
	}
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
