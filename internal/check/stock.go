package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// stockRule judges the stock from the history of its reads and writes
// (Elle's idea), not from the final count alone. Every GET of the stock
// reads the version its node holds; every executed SET of the stock is a
// write derived from the same thread's latest read, counted whether or not
// its reply ever arrived.
//
//   - oversell: more writes derived from reads of a positive stock than the
//     initial stock, or a write below zero;
//   - lost-update (without an oversell, which it would only explain): a
//     write derived from a version that was no longer its node's latest
//     when it executed, so the write in between was overwritten unseen (a
//     node that lost the stock, restarted empty, overwrote nothing).
type stockRule struct {
	key      string
	initial  int
	hasStock bool
	current  map[string]version   // node -> the version it holds (id 0: none)
	history  map[string][]version // node -> versions it held, in order
	reads    map[thread]stockRead
	sales    []int // writes derived from reads of a positive stock
	negative []int // writes below zero
	lost     []int // read, overwritten write, overwriting write: the first found
}

// version is one value of the stock on a node, named by the event that
// wrote it (or first showed it).
type version struct {
	id    int
	value string
}

type stockRead struct {
	seq int
	ver version
}

func newStockRule(key string) *stockRule {
	return &stockRule{key: key, current: map[string]version{}, history: map[string][]version{}, reads: map[thread]stockRead{}}
}

func (r *stockRule) observe(e *sim.Event, _ []change, m *model) []sim.Event {
	if r.key == "" {
		return nil
	}
	var state *sim.KeyState
	for i := range e.Keys {
		if e.Keys[i].Key == r.key {
			state = &e.Keys[i]
		}
	}
	if state == nil && e.Kind == sim.KindFault && e.Name == string(sim.FaultNodeRestart) && e.Applied() {
		state = &sim.KeyState{Key: r.key, TTL: -2} // the node came back without it
	}
	if state == nil {
		return nil
	}
	if e.Kind != sim.KindExec || e.Client == "" {
		r.seen(e, m, *state)
		return nil
	}
	t := m.threadOf(e)
	if len(e.Cmd) == 2 && strings.EqualFold(e.Cmd[0], "GET") {
		cur := r.current[e.Node]
		if state.Exists() && (cur.id == 0 || cur.value != state.Value) {
			cur = version{e.Seq, state.Value} // a version the checker did not see written
			r.current[e.Node] = cur
		}
		r.reads[t] = stockRead{seq: e.Seq, ver: cur}
		return nil
	}
	v, ok := r.written(e)
	if !ok {
		return nil
	}
	read, derived := r.reads[t]
	delete(r.reads, t)
	cur := r.current[e.Node]
	if derived && cur.id != 0 && read.ver.id != cur.id && r.lost == nil {
		r.lost = []int{read.seq, cur.id, e.Seq}
	}
	if n, err := strconv.Atoi(read.ver.value); derived && read.ver.id != 0 && err == nil && n > 0 {
		r.sales = append(r.sales, e.Seq)
	}
	if n, err := strconv.Atoi(v); err == nil && n < 0 {
		r.negative = append(r.negative, e.Seq)
	}
	r.set(e.Node, version{e.Seq, v})
	return nil
}

// seen updates a node's stock from an event that is no client's command:
// init, expire, replicate, a node's restart. A replica's copy is the
// version its master wrote.
func (r *stockRule) seen(e *sim.Event, m *model, k sim.KeyState) {
	if !k.Exists() {
		r.current[e.Node] = version{}
		return
	}
	if cur := r.current[e.Node]; cur.id != 0 && cur.value == k.Value {
		return
	}
	v := version{e.Seq, k.Value}
	if master, ok := m.opt.ReplicaOf[e.Node]; ok && (e.Kind == sim.KindReplicate || e.Kind == sim.KindInit) {
		h := r.history[master]
		for i := len(h) - 1; i >= 0; i-- {
			if h[i].value == k.Value {
				v = h[i]
				break
			}
		}
	} else if e.Kind == sim.KindInit && !r.hasStock {
		n, err := strconv.Atoi(k.Value)
		r.initial, r.hasStock = n, err == nil
	}
	r.set(e.Node, v)
}

// set records that node now holds version v.
func (r *stockRule) set(node string, v version) {
	r.current[node] = v
	r.history[node] = append(r.history[node], v)
}

// written is the stock value an exec wrote: SET stock v that answered OK,
// alone or inside a MULTI ... EXEC that was not refused.
func (r *stockRule) written(e *sim.Event) (string, bool) {
	cmd := e.Cmd
	replies := strings.Split(e.Reply, "; ")
	batch := len(cmd) > 0 && strings.EqualFold(cmd[0], "MULTI")
	if batch && !strings.HasPrefix(replies[len(replies)-1], "[") {
		return "", false
	}
	if !batch && e.Reply != "OK" {
		return "", false
	}
	for i := 0; i+2 < len(cmd); i++ {
		if strings.EqualFold(cmd[i], "SET") && cmd[i+1] == r.key && (i == 0 || cmd[i-1] == "|") {
			return cmd[i+2], true
		}
	}
	return "", false
}

func (r *stockRule) finish(*model) []sim.Event {
	if !r.hasStock {
		return nil
	}
	if len(r.sales) > r.initial || len(r.negative) > 0 {
		return []sim.Event{verdict(Oversell, append(r.sales, r.negative...),
			fmt.Sprintf("The stock held %d, but %d deductions were written back: it was sold more often than it could be.", r.initial, len(r.sales)),
			fmt.Sprintf("库存只有 %d 件，却有 %d 次扣减被写回：超卖。", r.initial, len(r.sales)))}
	}
	if r.lost != nil {
		return []sim.Event{verdict(LostUpdate, r.lost,
			fmt.Sprintf("The write at #%d was derived from the stock read at #%d, but the write at #%d had changed it in between: that update was overwritten unseen, lost.", r.lost[2], r.lost[0], r.lost[1]),
			fmt.Sprintf("#%d 的写入基于 #%d 读到的库存，但两者之间 #%d 的写入已经改过它：那次更新被悄悄覆盖，丢失了。", r.lost[2], r.lost[0], r.lost[1]))}
	}
	return nil
}
