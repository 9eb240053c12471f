package zookeeper

import (
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// CURATOR-604's shape with go-zookeeper's own zk.Lock (protected nodes):
// A's create runs and its reply is lost with its connection; A's proxy
// then holds every new connection past A's 500 ms session, so A's session
// expires while its lock call is between the create and its look for
// the node by its GUID. In Curator the look ran on the new session and
// found the expired session's node not yet deleted: A held the lock by a
// node about to go. Argued before it ran: go-zookeeper fails the lock call
// with "session expired" when its reconnection is told the session ended,
// or, if the look is sent on the new session, the server deleted the old
// session's node when it expired it, long before the client's new session
// (it waits a second before it dials its one server again): the look finds
// nothing and creates again. Either way A never holds by a node that is
// gone: the test fails if Lock returns with A holding by a node that is
// not its live session's. Measured (four runs): zk.NewLock failed every
// time with "could not connect to a server" (its look for the GUID, sent
// while the client was between connections, is failed by go-zookeeper,
// and zk.Lock gives up); Mutex, which asks again, held every time by a
// second node of its new session, the first long deleted. The shape does
// not reproduce with this client against a standalone server.
func TestCurator604Shape(t *testing.T) {
	t.Run("zk.NewLock", func(t *testing.T) {
		curator604(t, "/lockstep/curator-604-lib", func(c *zk.Conn, path string) func() error {
			return zk.NewLock(c, path, zk.WorldACL(zk.PermAll)).Lock
		})
	})
	t.Run("Mutex", func(t *testing.T) {
		curator604(t, "/lockstep/curator-604-mutex", func(c *zk.Conn, path string) func() error {
			return NewMutex(c, path, true).Lock
		})
	})
}

func curator604(t *testing.T, path string, newLock func(*zk.Conn, string) func() error) {
	pa := proxy(t)
	ca, _ := sessionEvents(t, 500*time.Millisecond, pa)
	observer := session(t, 2*time.Second, nil)
	if err := NewMutex(observer, path, true).makePath(); err != nil {
		t.Fatal(err)
	}
	pa.OnLost(func(Lost) {
		pa.Pause()
		time.AfterFunc(1500*time.Millisecond, pa.Resume)
	})
	pa.LoseNextReply(OpCreate)
	lock := newLock(ca, path)
	ch := make(chan error, 1)
	go func() { ch <- lock() }()
	var err error
	select {
	case err = <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("A's Lock did not return")
	}
	kids, _, kerr := observer.Children(path)
	if kerr != nil {
		t.Fatal(kerr)
	}
	t.Logf("A's Lock: %v; the lock's children: %v; A's session %x", err, kids, ca.SessionID())
	if err == nil {
		if len(kids) != 1 {
			t.Fatalf("A holds with children %v: want its one node on its new session", kids)
		}
		_, st, err := observer.Get(path + "/" + kids[0])
		if err != nil || st.EphemeralOwner != ca.SessionID() {
			t.Fatalf("A holds by %s of session %x, its session is %x (%v): the CURATOR-604 shape", kids[0], st.EphemeralOwner, ca.SessionID(), err)
		}
	}
}
