package etcd

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// watcher reads the lock's state from the server, as the server orders
// it: a watch on the lock's prefix, and after each change the waiter with
// the lowest create revision at that revision (the Mutex's own rule of
// who holds). It records each change as the server's exec (a waiter's key
// put, or deleted by its Unlock) or as an expiry (its lease ran out or was
// revoked), with the lock as one key whose owner is the holder: the
// checker's holder model for a queue lock (check.Options.Queues).
type watcher struct {
	cli  *clientv3.Client
	rec  *live.Recorder
	ns   string // the run's namespace, left out of the log
	lock string // the Mutex's prefix, without its slash or the namespace
	ttl  int64  // the sessions' lease, in ms

	mu     sync.Mutex
	owners map[clientv3.LeaseID]string // a session's lease -> its client
	asked  map[string]bool             // waiters' keys their owners asked to delete
	// ends is when each session's lease ends as its client last heard:
	// the reply to its grant or its latest keep-alive, plus the TTL the
	// server gave in it (time since the run's start). The server ends it
	// by its own clock at about then (it checks every 500 ms).
	ends map[clientv3.LeaseID]time.Duration
	head string // the lock's first waiter's key, as last read
	// logged is the first waiter's key of the last change recorded, and
	// moved is closed (and replaced) each time a change is recorded.
	logged string
	moved  chan struct{}
}

// newWatcher watches the lock of a run in namespace ns whose sessions
// hold leases of lease seconds.
func newWatcher(cli *clientv3.Client, rec *live.Recorder, ns string, lease int) *watcher {
	return &watcher{cli: cli, rec: rec, ns: ns, lock: LockName, ttl: int64(lease) * 1000,
		owners: map[clientv3.LeaseID]string{}, asked: map[string]bool{}, ends: map[clientv3.LeaseID]time.Duration{}, moved: make(chan struct{})}
}

// waitLogged waits, at most d, until the log holds the change that made
// key the lock's first waiter. A client hears that it holds the lock on
// its own connection, and the watch tells of the change on another: the
// client's "acquired" waits for it, so that the log keeps the server's
// order (A's lease ended, then B acquired). After d it goes on: a watch
// that fell behind by that much is the server's to tell.
func (w *watcher) waitLogged(ctx context.Context, key string, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		w.mu.Lock()
		logged, moved := w.logged, w.moved
		w.mu.Unlock()
		if logged == key {
			return
		}
		select {
		case <-moved:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// recorded says that a change, after which head was the lock's first
// waiter ("" when none), is in the log.
func (w *watcher) recorded(head string) {
	w.mu.Lock()
	w.logged = head
	close(w.moved)
	w.moved = make(chan struct{})
	w.mu.Unlock()
}

// renewed says that the server granted or kept alive lease for ttl
// seconds, as its client heard at: the lease now ends at at+ttl. When the
// lease is the lock's holder's, it gives the lock's state with its new
// end (the reply that renewed it shows the lock's TTL full again).
func (w *watcher) renewed(lease clientv3.LeaseID, ttl int64, at time.Duration) (sim.KeyState, bool) {
	if ttl <= 0 {
		return sim.KeyState{}, false // the server no longer knows the lease
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ends[lease] = at + time.Duration(ttl)*time.Second
	if w.head == "" || leaseOf(w.head) != lease {
		return sim.KeyState{}, false
	}
	return w.held(w.head, at), true
}

// held is the lock's state held by waiter head at now (w.mu held): its
// TTL what is left of its session's lease, its expiry when the lease
// ends, both as its client last heard.
func (w *watcher) held(head string, now time.Duration) sim.KeyState {
	k := sim.KeyState{Key: w.lock, Type: "string", Value: head, Owner: w.owners[leaseOf(head)], TTL: w.ttl}
	if end, ok := w.ends[leaseOf(head)]; ok {
		k.TTL = max(end-now, 0).Milliseconds()
		k.Expire = max(end.Milliseconds(), 1)
	}
	return k
}

// leaseOf is the lease of a waiter's key (prefix/lease in hex), or 0.
func leaseOf(key string) clientv3.LeaseID {
	id, err := strconv.ParseInt(key[strings.LastIndexByte(key, '/')+1:], 16, 64)
	if err != nil {
		return 0
	}
	return clientv3.LeaseID(id)
}

// deleting says that a client asked the server to delete key.
func (w *watcher) deleting(key string) {
	w.mu.Lock()
	w.asked[key] = true
	w.mu.Unlock()
}

// unlocked reports whether key's owner asked to delete it.
func (w *watcher) unlocked(key string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.asked[key]
}

// own says that lease is client's session.
func (w *watcher) own(lease clientv3.LeaseID, client string) {
	w.mu.Lock()
	w.owners[lease] = client
	w.mu.Unlock()
}

// ownerOf is the client whose session put a waiter's key (prefix/lease
// in hex).
func (w *watcher) ownerOf(key string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.owners[leaseOf(key)]
}

// run records the lock's changes until ctx ends; ready is closed once the
// watch is in place.
func (w *watcher) run(ctx context.Context, ready chan<- struct{}) {
	wch := w.cli.Watch(clientv3.WithRequireLeader(ctx), w.ns+w.lock+"/", clientv3.WithPrefix(), clientv3.WithCreatedNotify())
	for resp := range wch {
		if resp.Created {
			close(ready)
			continue
		}
		for _, ev := range resp.Events {
			w.record(ctx, ev)
		}
	}
}

// record records one change of a waiter's key.
func (w *watcher) record(ctx context.Context, ev *clientv3.Event) {
	key := strings.TrimPrefix(string(ev.Kv.Key), w.ns)
	who := w.ownerOf(key)
	state, ok := w.state(ctx, ev.Kv.ModRevision)
	if !ok {
		return // the run is over
	}
	w.rec.Add(w.event(ev, key, who, state))
	head := ""
	if state.TTL != -2 {
		head = state.Value
	}
	w.recorded(head)
}

// event is how the log tells of one change of a waiter's key.
func (w *watcher) event(ev *clientv3.Event, key, who string, state sim.KeyState) sim.Event {
	rev := "rev " + strconv.FormatInt(ev.Kv.ModRevision, 10)
	if ev.Type == mvccpb.PUT {
		return sim.Event{Kind: sim.KindExec, Client: who, Node: Node, Cmd: []string{"Put", key}, Reply: "OK " + rev,
			Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{state}}
	}
	// a key its owner asked to delete (its Unlock) went by that request;
	// any other by the end of its lease (run out, or revoked)
	if w.unlocked(key) {
		return sim.Event{Kind: sim.KindExec, Client: who, Node: Node, Cmd: []string{"DeleteRange", key}, Reply: "deleted 1 " + rev,
			Answer: sim.Answer{Type: sim.AnswerInt, Gist: "1"}, Keys: []sim.KeyState{state}}
	}
	return sim.Event{Kind: sim.KindExpire, Node: Node, Keys: []sim.KeyState{state},
		Fact: &fact.Fact{Key: fact.LeaseEnded, Holder: who, Item: key}}
}

// state is the lock at revision rev: held by the waiter with the lowest
// create revision under its prefix, as one key whose value is that
// waiter's key, whose owner is its client and whose TTL is what is left of
// that client's lease as the client last heard; gone when no one waits.
func (w *watcher) state(ctx context.Context, rev int64) (sim.KeyState, bool) {
	resp, err := w.cli.Get(ctx, w.ns+w.lock+"/", append(clientv3.WithFirstCreate(), clientv3.WithRev(rev))...)
	if err != nil {
		return sim.KeyState{}, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(resp.Kvs) == 0 {
		w.head = ""
		return sim.KeyState{Key: w.lock, TTL: -2}, true
	}
	w.head = strings.TrimPrefix(string(resp.Kvs[0].Key), w.ns)
	return w.held(w.head, w.rec.Since()), true
}
