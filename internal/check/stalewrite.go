package check

import (
	"fmt"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// StaleWrite is the verdict of a write the protected resource accepted
// from a client whose lease had ended.
const StaleWrite = "stale-write"

// staleWriteRule: the protected resource (a storage service's WRITE) must
// not accept a write from a client that no longer holds a lock. A client
// holds a lease while some lock key (on any node or service) holds its
// value; the lease ends when that key expires, is deleted or takes another
// owner's value. A WRITE answered OK from a client that held a lease once
// and holds none now is a stale write: the resource took a write made in
// the belief of a lock that was gone.
type staleWriteRule struct {
	held  holders
	count map[string]int // client -> lock keys it holds now
	since map[string]int // client -> seq at which it last began to hold a lock
	lost  map[string]int // client -> seq of the event that ended its last lease
}

func newStaleWriteRule() *staleWriteRule {
	return &staleWriteRule{held: holders{}, count: map[string]int{}, since: map[string]int{}, lost: map[string]int{}}
}

func (r *staleWriteRule) observe(e *sim.Event) []sim.Event {
	// Only the keys this event touches can change hands: compare their
	// owners before and after it, and keep each client's count of keys.
	before := map[string]string{}
	for _, k := range e.Keys {
		id := e.Node + "/" + k.Key
		before[id] = r.held.owner(id)
	}
	r.held.observe(e)
	for id, was := range before {
		now := r.held.owner(id)
		if was == now {
			continue
		}
		if was != "" {
			if r.count[was]--; r.count[was] == 0 {
				r.lost[was] = e.Seq
			}
		}
		if now != "" {
			if r.count[now]++; r.count[now] == 1 {
				r.since[now] = e.Seq
			}
		}
	}
	if e.Kind != sim.KindExec || e.Client == "" || len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") || e.Reply != "OK" {
		return nil
	}
	got, had := r.since[e.Client]
	if !had || r.count[e.Client] > 0 {
		return nil
	}
	ended := r.lost[e.Client]
	return []sim.Event{verdict(StaleWrite, []int{got, ended, e.Seq},
		fmt.Sprintf("%s at #%d accepted %s's write, but %s's lease (taken at #%d) had ended at #%d: the resource took a write from a client that no longer held the lock.",
			e.Node, e.Seq, e.Client, e.Client, got, ended),
		fmt.Sprintf("%s 在 #%d 接受了 %s 的写入，但 %s 的租约（#%d 获得）已在 #%d 结束：被保护的资源接受了一个已不再持有锁的客户端的写入。",
			e.Node, e.Seq, e.Client, e.Client, got, ended))}
}

func (r *staleWriteRule) finish() []sim.Event { return nil }
