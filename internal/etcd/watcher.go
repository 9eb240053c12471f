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
}

// newWatcher watches the lock of a run in namespace ns whose sessions
// hold leases of lease seconds.
func newWatcher(cli *clientv3.Client, rec *live.Recorder, ns string, lease int) *watcher {
	return &watcher{cli: cli, rec: rec, ns: ns, lock: LockName, ttl: int64(lease) * 1000,
		owners: map[clientv3.LeaseID]string{}, asked: map[string]bool{}, ends: map[clientv3.LeaseID]time.Duration{}}
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
	rev := "rev " + strconv.FormatInt(ev.Kv.ModRevision, 10)
	if ev.Type == mvccpb.PUT {
		w.rec.Add(sim.Event{Kind: sim.KindExec, Client: who, Node: Node, Cmd: []string{"Put", key}, Reply: "OK " + rev,
			Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{state}})
		return
	}
	// a key its owner asked to delete (its Unlock) went by that request;
	// any other by the end of its lease (run out, or revoked)
	if w.unlocked(key) {
		w.rec.Add(sim.Event{Kind: sim.KindExec, Client: who, Node: Node, Cmd: []string{"DeleteRange", key}, Reply: "deleted 1 " + rev,
			Answer: sim.Answer{Type: sim.AnswerInt, Gist: "1"}, Keys: []sim.KeyState{state}})
		return
	}
	w.rec.Add(sim.Event{Kind: sim.KindExpire, Node: Node, Keys: []sim.KeyState{state},
		Fact: &fact.Fact{Key: fact.LeaseEnded, Holder: who, Item: key}})
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
