package zookeeper

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
)

// watcher reads the lock's state from the server, as the server orders
// it: a watch on the children of the lock's node, and after each change
// the node with the lowest sequence number (the recipe's own rule of who
// holds). It records each change as the server's exec (a node created, or
// deleted by its client's unlock) or as an expiry (its session expired),
// with the lock as one key whose owner is the holder: the checker's holder
// model for a queue lock (check.Options.Queues).
type watcher struct {
	c    *zk.Conn
	rec  *live.Recorder
	root string // the run's path, left out of the log

	mu       sync.Mutex
	owners   map[string]string // a lock node (its name under job/) -> its client
	sessions map[int64]string  // a session id -> its client
	asked    map[string]bool   // nodes their clients asked to delete
	nodes    []string          // the lock's children as last recorded
	lost     map[string]int    // a client -> the request (its send's seq) of its create whose reply is to be lost
	// The sessions as their clients last heard (session.go): each
	// client's session ends its timeout after the last reply it heard.
	timeout time.Duration
	ends    map[string]time.Duration
}

func newWatcher(c *zk.Conn, rec *live.Recorder, root string, timeout time.Duration) *watcher {
	return &watcher{c: c, rec: rec, root: root, owners: map[string]string{}, sessions: map[int64]string{}, asked: map[string]bool{}, lost: map[string]int{},
		timeout: timeout, ends: map[string]time.Duration{}}
}

// created says that client's create made node (a full path).
func (w *watcher) created(node, client string) {
	w.mu.Lock()
	w.owners[name(node)] = client
	w.mu.Unlock()
}

// deleting says that a client asked the server to delete node.
func (w *watcher) deleting(node string) {
	w.mu.Lock()
	w.asked[name(node)] = true
	w.mu.Unlock()
}

// losing says that the reply to client's next create, request req, is to
// be lost: the next node of client's is that create's.
func (w *watcher) losing(client string, req int) {
	w.mu.Lock()
	w.lost[client] = req
	w.mu.Unlock()
}

// heads waits, up to limit, until the lock's state as recorded has node
// at its head: the log then shows the server's order (the node before
// it deleted, this one holding) before the client's acquisition, which
// the same change set off. Both come from one change on the server; the
// watch and the client's own read of it race by a few milliseconds.
func (w *watcher) heads(node string, limit time.Duration) {
	n := name(node)
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		w.mu.Lock()
		ok := len(w.nodes) > 0 && w.nodes[0] == n
		w.mu.Unlock()
		if ok {
			return
		}
	}
}

// name is a lock node's name under the lock's node.
func name(node string) string {
	for i := len(node) - 1; i >= 0; i-- {
		if node[i] == '/' {
			return node[i+1:]
		}
	}
	return node
}

// run records the lock's changes until ctx ends.
func (w *watcher) run(ctx context.Context) {
	dir := w.root + "/" + LockName
	for ctx.Err() == nil {
		kids, _, ch, err := w.c.ChildrenW(dir)
		if err != nil {
			if !sleep(ctx, 50*time.Millisecond) {
				return
			}
			continue
		}
		w.resolve(kids)
		w.record(kids)
		select {
		case <-ch:
		case <-ctx.Done():
			return
		}
	}
}

// record records how the lock's children changed: the nodes gone first
// (a release or an expiry comes before the create that follows it), then
// the new ones, in the order of their sequence numbers.
func (w *watcher) record(kids []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	bySeq(kids)
	var gone, added []string
	for _, n := range w.nodes {
		if !slices.Contains(kids, n) {
			gone = append(gone, n)
		}
	}
	for _, n := range kids {
		if !slices.Contains(w.nodes, n) {
			added = append(added, n)
		}
	}
	for _, n := range gone {
		w.nodes = slices.DeleteFunc(w.nodes, func(m string) bool { return m == n })
		item, who := LockName+"/"+n, w.owners[n]
		state := w.state()
		if w.asked[n] {
			w.rec.Add(sim.Event{Kind: sim.KindExec, Client: who, Node: Node, Cmd: []string{"delete", item}, Reply: "OK",
				Answer: sim.Answer{Type: sim.AnswerOK}, Keys: w.keys(state)})
			continue
		}
		w.rec.Add(sim.Event{Kind: sim.KindExpire, Node: Node, Keys: w.keys(state),
			Fact: &fact.Fact{Key: fact.SessionExpired, Holder: who, Item: item}})
	}
	for _, n := range added {
		w.nodes = append(w.nodes, n)
		bySeq(w.nodes)
		who := w.owners[n]
		req := w.lost[who]
		delete(w.lost, who)
		w.rec.Add(sim.Event{Kind: sim.KindExec, Client: who, Node: Node, Req: req,
			Cmd: []string{"create", LockName + "/" + n, "EPHEMERAL_SEQUENTIAL"}, Reply: "OK",
			Answer: sim.Answer{Type: sim.AnswerOK}, Keys: w.keys(w.state())})
	}
}

// state is the lock as last recorded (w.mu held): held by the node with
// the lowest sequence number, as one key whose value is that node and
// whose owner is its client; it has no TTL of its own (an ephemeral node
// lives as long as its session); gone when no one waits.
func (w *watcher) state() sim.KeyState {
	if len(w.nodes) == 0 {
		return sim.KeyState{Key: LockName, TTL: -2}
	}
	head := w.nodes[0]
	return sim.KeyState{Key: LockName, Type: "string", Value: LockName + "/" + head, Owner: w.owners[head], TTL: -1}
}

// bySeq sorts lock nodes by their sequence number (a protected node's
// name begins with its GUID, so the name alone does not sort).
func bySeq(nodes []string) {
	slices.SortFunc(nodes, func(a, b string) int {
		sa, _ := seqOf(a)
		sb, _ := seqOf(b)
		return sa - sb
	})
}

// resolve finds the client of each new node: told by its client's create,
// or, when the watch came before the create's reply, by the node's
// ephemeral owner, the session that made it.
func (w *watcher) resolve(kids []string) {
	for _, n := range kids {
		for try := 0; try < 20; try++ {
			w.mu.Lock()
			_, known := w.owners[n]
			w.mu.Unlock()
			if known {
				break
			}
			if _, st, err := w.c.Exists(w.root + "/" + LockName + "/" + n); err == nil && st != nil {
				w.mu.Lock()
				if who, ok := w.sessions[st.EphemeralOwner]; ok {
					w.owners[n] = who
				}
				w.mu.Unlock()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// session says that session id is client's.
func (w *watcher) session(id int64, client string) {
	w.mu.Lock()
	w.sessions[id] = client
	w.mu.Unlock()
}

// queued reports whether the lock's queue as recorded has n nodes.
func (w *watcher) queued(n int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.nodes) >= n
}
