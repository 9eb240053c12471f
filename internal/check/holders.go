package check

// How the model applies a key's new state to its holders.

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// key applies one key's new state to its holders.
func (m *model) key(e *sim.Event, k sim.KeyState) change {
	id := e.Node + "\x00" + k.Key
	s := m.keys[id]
	if s == nil {
		s = &slot{node: e.Node, key: k.Key, lock: sim.LockOfKey(k.Key), state: sim.KeyState{Key: k.Key, TTL: -2}}
		m.keys[id] = s
	}
	if s.present() && s.state.Expire > 0 && e.T >= time.Duration(s.state.Expire+1)*time.Millisecond {
		// its time (kept to the millisecond) had passed before this
		// event: whatever the event shows, the key went by expiry (real
		// Redis may drop a key with no expire event logged)
		s.state, s.holders = sim.KeyState{Key: k.Key, TTL: -2}, nil
	}
	ch := change{slot: s, before: s.holders, existed: s.present()}
	was, now := s.state, k
	same := was.Exists() == now.Exists() && was.Type == now.Type && was.Value == now.Value
	ch.moved = !same
	if e.Kind == sim.KindExec && e.Client != "" && len(e.Cmd) == 2 && strings.EqualFold(e.Cmd[0], "GET") {
		t := m.threadOf(e)
		if m.got[t] == nil {
			m.got[t] = map[string]sim.KeyState{}
		}
		m.got[t][id] = now
	}
	switch {
	case m.queues[s.lock]:
		s.holders = m.named(s.holders, now, e)
	case e.Kind == sim.KindExec && e.Client != "" && sim.Writes(e.Cmd):
		t := m.threadOf(e)
		me := holder{th: t, since: e.Seq, req: e.Req}
		switch {
		case !now.Exists():
			if was.Exists() {
				ch.removed, ch.by = true, t
			}
			s.holders = nil
		case !same && m.lostGetSet(e, t, id, was):
			// the GETSET's reply is not the value t read (another stamp,
			// or (nil): the key was gone): t knows it lost the takeover
			// and holds nothing, though its stamp stands in the key;
			// whoever held the key still does
		case !was.Exists():
			s.holders = []holder{me}
		case now.Type == "hash" && was.Type == "hash":
			s.holders = hashHolders(s.holders, was.Value, now.Value, me)
		case !same:
			s.holders = []holder{me}
		}
		if now.Exists() && !same {
			m.history[id] = append(m.history[id], write{value: now.Value, holders: s.holders})
		}
	case e.Kind == sim.KindReplicate && now.Exists() && !same:
		before := s.holders
		s.holders = nil
		hist := m.history[m.opt.ReplicaOf[e.Node]+"\x00"+k.Key]
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].value == now.Value {
				// the writers hold the replica's copy from this event on,
				// or since they first held it there
				for _, h := range hist[i].holders {
					h.since = e.Seq
					if j := slices.IndexFunc(before, func(b holder) bool { return b.th == h.th }); j >= 0 {
						h.since = before[j].since
					}
					s.holders = append(s.holders, h)
				}
				break
			}
		}
		m.history[id] = append(m.history[id], write{value: now.Value, holders: s.holders})
	case !now.Exists() || !same:
		s.holders = nil
	}
	s.state = now
	return ch
}

// named is who holds a queue lock (Options.Queues) after an event: the
// client its key state names as owner, since the event that first named
// it (with its request, when it is the owner's own: a lost reply leaves
// the owner unaware that it holds); nobody when the key is gone or names
// no one.
func (m *model) named(hs []holder, now sim.KeyState, e *sim.Event) []holder {
	if !now.Exists() || now.Owner == "" {
		return nil
	}
	t := thread{client: now.Owner, inc: m.inc[now.Owner], name: "main"}
	if len(hs) == 1 && hs[0].th == t {
		return hs
	}
	me := holder{th: t, since: e.Seq}
	if e.Client == now.Owner {
		// the owner's own request made it the head: its reply's fate
		// says whether the owner can know it holds
		me.req = e.Req
	}
	return []holder{me}
}

// lostGetSet reports whether an exec is a GETSET that lost a takeover: its
// thread read the key before (GET) and the value the GETSET replaced, which
// is its reply, is not the value read. The timestamp lock's loser rewrites
// the stamp (the algorithm's known wart) but reads back the winner's stamp,
// knows it lost, and never enters: no takeover.
func (m *model) lostGetSet(e *sim.Event, t thread, id string, was sim.KeyState) bool {
	if len(e.Cmd) < 3 || !strings.EqualFold(e.Cmd[0], "GETSET") {
		return false
	}
	read, ok := m.got[t][id]
	return ok && (read.Exists() != was.Exists() || read.Value != was.Value)
}

// hashHolders is who holds a hash lock after a client's command: its
// owner fields changed (a new owner), or the same fields with a count up
// (me joins, or holds once more: a re-entry) or down (me gives one hold
// back, and leaves with its last).
func hashHolders(hs []holder, was, now string, me holder) []holder {
	wf, nf := hashFields(was), hashFields(now)
	if len(wf) != len(nf) {
		return []holder{me}
	}
	up := 0
	for f, n := range nf {
		o, ok := wf[f]
		if !ok {
			return []holder{me}
		}
		up += n - o
	}
	mine := -1
	for i, h := range hs {
		if h.th == me.th {
			mine = i
			break
		}
	}
	out := append([]holder(nil), hs...)
	switch {
	case up > 0 && mine < 0:
		return append(out, me)
	case up > 0:
		out[mine].extra += up
	case up < 0 && mine >= 0 && out[mine].extra > 0:
		out[mine].extra = max(out[mine].extra+up, 0)
	case up < 0 && mine >= 0:
		return append(out[:mine], out[mine+1:]...)
	default:
		return hs
	}
	return out
}

// hashFields reads a hash's "f=v f=v" form, counts as integers (0 when a
// value is not one).
func hashFields(v string) map[string]int {
	out := map[string]int{}
	for _, fv := range strings.Fields(v) {
		f, val, _ := strings.Cut(fv, "=")
		n, _ := strconv.Atoi(val)
		out[f] = n
	}
	return out
}
