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
	held holders
	ever map[string]int // client -> seq at which it last began to hold a lock
	lost map[string]int // client -> seq of the event that ended its last lease
}

func newStaleWriteRule() *staleWriteRule {
	return &staleWriteRule{held: holders{}, ever: map[string]int{}, lost: map[string]int{}}
}

func (r *staleWriteRule) observe(e *sim.Event) []sim.Event {
	before := r.leases()
	r.held.observe(e)
	after := r.leases()
	for c := range after {
		if !before[c] {
			r.ever[c] = e.Seq
		}
	}
	for c := range before {
		if !after[c] {
			r.lost[c] = e.Seq
		}
	}
	if e.Kind != sim.KindExec || e.Client == "" || len(e.Cmd) == 0 || !strings.EqualFold(e.Cmd[0], "WRITE") || e.Reply != "OK" {
		return nil
	}
	got, had := r.ever[e.Client]
	if !had || after[e.Client] {
		return nil
	}
	ended := r.lost[e.Client]
	return []sim.Event{verdict(StaleWrite, []int{got, ended, e.Seq},
		fmt.Sprintf("%s at #%d accepted %s's write, but %s's lease (taken at #%d) had ended at #%d: the resource took a write from a client that no longer held the lock.",
			e.Node, e.Seq, e.Client, e.Client, got, ended),
		fmt.Sprintf("%s 在 #%d 接受了 %s 的写入，但 %s 的租约（#%d 获得）已在 #%d 结束：被保护的资源接受了一个已不再持有锁的客户端的写入。",
			e.Node, e.Seq, e.Client, e.Client, got, ended))}
}

// leases is the set of clients that hold some lock now.
func (r *staleWriteRule) leases() map[string]bool {
	out := map[string]bool{}
	for _, h := range r.held {
		out[h.owner] = true
	}
	return out
}

func (r *staleWriteRule) finish() []sim.Event { return nil }
