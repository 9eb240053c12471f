package zookeeper

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// server is the one ZooKeeper the package's tests share (a JVM takes
// seconds to start); each test locks a path of its own.
var server *Server

func TestMain(m *testing.M) {
	s, err := Start(Options{})
	switch {
	case errors.Is(err, ErrNoJava) && os.Getenv("CI") == "":
		fmt.Println("skipping the ZooKeeper tests:", err)
		os.Exit(0)
	case err != nil:
		fmt.Println(err)
		os.Exit(1)
	}
	server = s
	code := m.Run()
	s.Kill()
	os.Exit(code)
}

// session is a client with a session of the given length, through a proxy
// of its own when via is set.
func session(t *testing.T, timeout time.Duration, via *Proxy) *zk.Conn {
	t.Helper()
	c, _ := sessionEvents(t, timeout, via)
	return c
}

// sessionEvents is session with the client's session events.
func sessionEvents(t *testing.T, timeout time.Duration, via *Proxy) (*zk.Conn, <-chan zk.Event) {
	t.Helper()
	addr := server.Addr
	if via != nil {
		addr = via.Addr
	}
	c, events, err := zk.Connect([]string{addr}, timeout, zk.WithLogger(quiet{}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, events
}

func proxy(t *testing.T) *Proxy {
	t.Helper()
	p, err := NewProxy(server.Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// locked runs m.Lock in the background; the channel gets its error.
func locked(m *Mutex) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- m.Lock() }()
	return ch
}

func within(t *testing.T, ch <-chan error, d time.Duration, what string) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(d):
		t.Fatalf("%s: not within %v", what, d)
	}
}

func still(t *testing.T, ch <-chan error, d time.Duration, what string) {
	t.Helper()
	select {
	case err := <-ch:
		t.Fatalf("%s: it returned (%v)", what, err)
	case <-time.After(d):
	}
}

// The server is real: it answers ZooKeeper's four-letter words and says
// its version.
func TestTheServerIsZooKeeper(t *testing.T) {
	out, err := server.FourLetter("srvr")
	if err != nil || !strings.Contains(out, "Zookeeper version: 3.") {
		t.Fatalf("srvr answered %q, %v", out, err)
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", server.Pid()))
	rss := ""
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			rss = strings.Join(strings.Fields(line)[1:], " ")
		}
	}
	t.Logf("started in %v; RSS %s; %s", server.Started, rss, strings.SplitN(out, "\n", 2)[0])
}

// Three clients on one lock take it in the order they asked, each waking
// when the one before it lets go; each holder's token, its node's creation
// zxid, is larger than the last one's.
func TestContentionHandsTheLockOnInOrder(t *testing.T) {
	const path = "/lockstep/contention"
	var ms []*Mutex
	for range 3 {
		ms = append(ms, NewMutex(session(t, 2*time.Second, nil), path, true))
	}
	within(t, locked(ms[0]), 5*time.Second, "A's lock")
	b := locked(ms[1])
	still(t, b, 300*time.Millisecond, "B waits while A holds")
	c := locked(ms[2])
	still(t, c, 300*time.Millisecond, "C waits while A holds")
	if err := ms[0].Unlock(); err != nil {
		t.Fatal(err)
	}
	within(t, b, 5*time.Second, "B's lock after A's release")
	still(t, c, 300*time.Millisecond, "C, watching B's node, waits while B holds")
	if err := ms[1].Unlock(); err != nil {
		t.Fatal(err)
	}
	within(t, c, 5*time.Second, "C's lock after B's release")
	tokens := []int64{ms[0].Token, ms[1].Token, ms[2].Token}
	if !slices.IsSorted(tokens) || tokens[0] == tokens[2] {
		t.Fatalf("tokens %v: each holder's creation zxid should be larger than the last", tokens)
	}
}

// A holder frozen past its session (its connection held by the proxy, as a
// long GC pause holds its pings): the server expires the session on its own
// clock, deletes the node, and the next client takes the lock while the
// frozen one, which the recipe tells nothing, still believes it holds it.
// When it thaws, its Unlock fails ("node does not exist"), and its token is
// below the new holder's: a storage that checks tokens refuses it.
func TestAFrozenHolderPastItsSessionGivesTwoHolders(t *testing.T) {
	const path = "/lockstep/frozen"
	pa := proxy(t)
	ca, events := sessionEvents(t, 200*time.Millisecond, pa)
	a := NewMutex(ca, path, true)
	b := NewMutex(session(t, 2*time.Second, nil), path, true)
	within(t, locked(a), 5*time.Second, "A's lock")
	pa.Pause()
	frozen := time.Now()
	within(t, locked(b), 10*time.Second, "B's lock while A is frozen")
	t.Logf("B acquired %v after A froze", time.Since(frozen).Round(time.Millisecond))
	if a.Node == "" {
		t.Fatal("A no longer believes it holds the lock: the recipe gave it no signal to learn that")
	}
	if b.Token <= a.Token {
		t.Fatalf("B's token %d is not above A's %d", b.Token, a.Token)
	}
	pa.Resume()
	thawed := time.Now()
	for ev := range events { // the client learns on reconnecting, not before
		if ev.State == zk.StateExpired {
			t.Logf("A learned its session expired %v after it thawed", time.Since(thawed).Round(time.Millisecond))
			break
		}
	}
	for ev := range events { // the client's new session
		if ev.State == zk.StateHasSession {
			break
		}
	}
	if err := a.Unlock(); !errors.Is(err, zk.ErrNoNode) && !errors.Is(err, zk.ErrSessionExpired) {
		t.Fatalf("A's Unlock after its session expired: %v, want node does not exist or session expired", err)
	}
}

// A create whose reply is lost with its connection: the client tries again.
// Unprotected, the first node stays, an orphan of a live session, below the
// client's second node; the client waits behind its own orphan, and so
// does everyone after it, until the session ends (ZOOKEEPER-1262).
// Protected, the retry finds the node it made, and the client holds the
// lock with one node.
func TestALostCreateReply(t *testing.T) {
	for _, protected := range []bool{false, true} {
		t.Run(fmt.Sprintf("protected=%v", protected), func(t *testing.T) {
			path := fmt.Sprintf("/lockstep/lost-create-%v", protected)
			observer := session(t, 2*time.Second, nil)
			if err := NewMutex(observer, path, protected).makePath(); err != nil {
				t.Fatal(err)
			}
			pa := proxy(t)
			ca := session(t, 2*time.Second, pa)
			pa.LoseNextReply(OpCreate)
			a := NewMutex(ca, path, protected)
			got := locked(a)
			if protected {
				within(t, got, 10*time.Second, "A's lock")
				if kids, _, err := observer.Children(path); err != nil || len(kids) != 1 {
					t.Fatalf("children %v (%v): want A's one node", kids, err)
				}
			} else {
				orphan(t, path, got, observer, ca)
			}
			if lost := pa.Lost(); len(lost) != 1 || lost[0].Op != OpCreate {
				t.Fatalf("the proxy lost %v, want one create's reply", lost)
			}
		})
	}
}

// orphan checks the unprotected client's wait behind its own orphan node,
// and B's behind it, until A's session ends.
func orphan(t *testing.T, path string, got <-chan error, observer, ca *zk.Conn) {
	t.Helper()
	still(t, got, 1500*time.Millisecond, "A, behind its own orphan")
	kids, _, err := observer.Children(path)
	if err != nil || len(kids) != 2 {
		t.Fatalf("children %v (%v): want A's orphan and A's second node", kids, err)
	}
	b := locked(NewMutex(session(t, 2*time.Second, nil), path, false))
	still(t, b, 500*time.Millisecond, "B, behind A's orphan")
	ca.Close() // A's session ends: its nodes go
	within(t, b, 10*time.Second, "B's lock once A's session ended")
}

// zk.NewLock, go-zookeeper's own recipe, runs unmodified against the same
// server: a second client waits until the first unlocks.
func TestGoZookeepersOwnLock(t *testing.T) {
	const path = "/lockstep/library"
	a := zk.NewLock(session(t, 2*time.Second, nil), path, zk.WorldACL(zk.PermAll))
	b := zk.NewLock(session(t, 2*time.Second, nil), path, zk.WorldACL(zk.PermAll))
	if err := a.Lock(); err != nil {
		t.Fatal(err)
	}
	ch := make(chan error, 1)
	go func() { ch <- b.Lock() }()
	still(t, ch, 300*time.Millisecond, "B waits while A holds")
	if err := a.Unlock(); err != nil {
		t.Fatal(err)
	}
	within(t, ch, 5*time.Second, "B's lock after A's release")
}

// BenchmarkHandOff times a hand-off: A unlocks, B (waiting on A's node)
// learns of it by its watch and holds the lock.
func BenchmarkHandOff(b *testing.B) {
	ca, _, err := zk.Connect([]string{server.Addr}, 2*time.Second, zk.WithLogger(quiet{}))
	if err != nil {
		b.Fatal(err)
	}
	defer ca.Close()
	cb, _, err := zk.Connect([]string{server.Addr}, 2*time.Second, zk.WithLogger(quiet{}))
	if err != nil {
		b.Fatal(err)
	}
	defer cb.Close()
	ma, mb := NewMutex(ca, "/lockstep/bench", true), NewMutex(cb, "/lockstep/bench", true)
	var total time.Duration
	for b.Loop() {
		if err := ma.Lock(); err != nil {
			b.Fatal(err)
		}
		ch := locked(mb)
		time.Sleep(20 * time.Millisecond) // B is waiting on A's node
		t0 := time.Now()
		if err := ma.Unlock(); err != nil {
			b.Fatal(err)
		}
		if err := <-ch; err != nil {
			b.Fatal(err)
		}
		total += time.Since(t0)
		if err := mb.Unlock(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N)/1000, "ms/handoff")
}
