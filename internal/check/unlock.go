package check

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/sim"
)

// unlockRule: a client's command never makes another client's lock
// disappear. It remembers every key that holds an owner's token; a command
// by someone else after which the key is gone is a foreign unlock, if that
// owner holds a lock at the time (it has marked "acquired" more often than
// it has given a lock back; a crashed holder still holds). Expiry is not a
// command and does not count.
//
// The holding matters where a value and a lock part ways: seed 001's
// GETSET race leaves the loser's timestamp in the key although the winner
// holds the lock, and the winner's DEL then removes the loser's value but
// nobody else's lock.
type unlockRule struct {
	owned map[string]sim.KeyState // node/key -> last state with an owner
	held  map[string]int          // client -> locks it holds by its marks
}

func newUnlockRule() *unlockRule {
	return &unlockRule{owned: map[string]sim.KeyState{}, held: map[string]int{}}
}

func (r *unlockRule) observe(e *sim.Event) []sim.Event {
	if e.Kind == sim.KindMark {
		switch e.Name {
		case "acquired":
			r.held[e.Client]++
		case "released", "release-refused", "release-failed":
			if r.held[e.Client] > 0 {
				r.held[e.Client]--
			}
		}
	}
	var out []sim.Event
	for _, k := range e.Keys {
		id := e.Node + "/" + k.Key
		if prev, ok := r.owned[id]; ok && e.Kind == sim.KindExec && !k.Exists() && prev.Owner != e.Client && r.held[prev.Owner] > 0 {
			out = append(out, verdict(ForeignUnlock, []int{e.Seq},
				fmt.Sprintf("%s's %s at #%d deleted %s, which held %s's lock, not %s's.", e.Client, e.Cmd[0], e.Seq, k.Key, prev.Owner, e.Client),
				fmt.Sprintf("%s 在 #%d 的 %s 删除了 %s，而那是 %s 的锁，不是 %s 自己的。", e.Client, e.Seq, e.Cmd[0], k.Key, prev.Owner, e.Client)))
		}
		if k.Exists() && k.Owner != "" {
			r.owned[id] = k
		} else {
			delete(r.owned, id)
		}
	}
	return out
}

func (r *unlockRule) finish() []sim.Event { return nil }
