package zookeeper

import (
	"sync/atomic"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// The holder's session drawn as a TTL bar, as etcd's lease is. A
// ZooKeeper session lives while the server hears from its client: each
// reply a client gets (its pings' among them) means its session ends its
// timeout later at the earliest, as the client last heard. The log
// carries the lock holder's session beside the lock as a key of its own,
// SessionKey: its owner the holder, its TTL what is left of the session,
// its expiry that end. It is not the lock's key: the lock's node has no
// TTL of its own (its client's pings keep the session alive for as long
// as the client runs: an orphan node is a deadlock, which the checker
// sees from the lock's key). The holder's pings are logged (thread ping),
// each reply carrying the session again, the bar full again; a frozen
// holder hears nothing and its bar runs down to the end, and the server's
// expiry of its node follows (the server checks its sessions once a
// tick).

// SessionKey is the key the lock holder's session is drawn as.
const SessionKey = "session"

// keys are the lock's state lock and its holder's session (w.mu held).
func (w *watcher) keys(lock sim.KeyState) []sim.KeyState {
	return []sim.KeyState{lock, w.sessionOf(lock.Owner)}
}

// sessionOf is the session of holder as its client last heard (w.mu
// held): gone when there is no holder or it has not heard yet.
func (w *watcher) sessionOf(holder string) sim.KeyState {
	end, ok := w.ends[holder]
	if holder == "" || !ok {
		return sim.KeyState{Key: SessionKey, TTL: -2}
	}
	k := sim.KeyState{Key: SessionKey, Type: "string", Value: holder + "'s session", Owner: holder}
	k.TTL = max(end-w.rec.Since(), 0).Milliseconds()
	k.Expire = max(end.Milliseconds(), 1)
	return k
}

// heard says that client heard from the server at at: its session ends
// the timeout later. When client holds the lock, it gives its session's
// state with that end.
func (w *watcher) heard(client string, at time.Duration) (sim.KeyState, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ends[client] = at + w.timeout
	if len(w.nodes) == 0 || w.owners[w.nodes[0]] != client {
		return sim.KeyState{}, false
	}
	return w.sessionOf(client), true
}

// holds reports whether client's node heads the lock as recorded.
func (w *watcher) holds(client string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.nodes) > 0 && w.owners[w.nodes[0]] == client
}

// pinger logs a holder's pings and what its client hears.
type pinger struct {
	w    *worker
	ping atomic.Int64 // the seq of the holder's ping awaiting its reply
}

// frame is told of each frame of the worker's connection (Proxy.OnFrame).
func (p *pinger) frame(up bool, xid int32) {
	w := p.w
	if up {
		if xid == PingXid && w.watch.holds(w.Name) {
			p.ping.Store(int64(w.rec.Add(sim.Event{Kind: sim.KindSend, Client: w.Name, Thread: "ping", Node: Node, Cmd: []string{"ping"}})))
		}
		return
	}
	k, held := w.watch.heard(w.Name, w.rec.Since())
	if xid != PingXid {
		return
	}
	if req := int(p.ping.Swap(0)); req != 0 {
		e := sim.Event{Kind: sim.KindReply, Client: w.Name, Thread: "ping", Node: Node, Req: req, Reply: "OK", Answer: sim.Answer{Type: sim.AnswerOK}}
		if held {
			e.Keys = []sim.KeyState{k}
		}
		w.rec.Add(e)
	}
}
