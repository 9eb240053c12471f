package check

import (
	"fmt"

	"github.com/lockstep/lockstep/internal/sim"
)

// unlockRule: a client's command never makes another client's lock
// disappear. It remembers every key that holds an owner's token; a command
// by someone else after which the key is gone is a foreign unlock. Expiry
// is not a command and does not count.
type unlockRule struct {
	owned map[string]sim.KeyState // node/key -> last state with an owner
}

func newUnlockRule() *unlockRule { return &unlockRule{owned: map[string]sim.KeyState{}} }

func (r *unlockRule) observe(e *sim.Event) []sim.Event {
	var out []sim.Event
	for _, k := range e.Keys {
		id := e.Node + "/" + k.Key
		if prev, ok := r.owned[id]; ok && e.Kind == sim.KindExec && !k.Exists() && prev.Owner != e.Client {
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
