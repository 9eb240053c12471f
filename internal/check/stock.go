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
//     when it executed, so the write in between was overwritten unseen.
type stockRule struct {
	key      string
	initial  int
	hasStock bool
	version  map[string]int          // node -> seq of the write it holds
	history  map[string][]stockWrite // node -> writes it holds, in order
	reads    map[thread]stockRead
	sales    []int
	negative bool
	lost     []int // read, overwritten write, overwriting write: the first found
}

type stockRead struct {
	seq, version int
	value        int
}

type stockWrite struct {
	value   string
	version int
}

func newStockRule(key string) *stockRule {
	return &stockRule{key: key, version: map[string]int{}, history: map[string][]stockWrite{}, reads: map[thread]stockRead{}}
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
	if state == nil {
		return nil
	}
	switch e.Kind {
	case sim.KindInit, sim.KindReplicate:
		if e.Kind == sim.KindInit && !r.hasStock {
			if n, err := strconv.Atoi(state.Value); err == nil {
				r.initial, r.hasStock = n, true
			}
		}
		v := e.Seq
		if master, ok := m.opt.ReplicaOf[e.Node]; ok {
			h := r.history[master]
			for i := len(h) - 1; i >= 0; i-- {
				if h[i].value == state.Value {
					v = h[i].version
					break
				}
			}
		}
		r.set(e.Node, state.Value, v)
	case sim.KindExec:
		if e.Client == "" {
			return nil
		}
		t := m.threadOf(e)
		if len(e.Cmd) == 2 && strings.EqualFold(e.Cmd[0], "GET") {
			n, _ := strconv.Atoi(state.Value)
			r.reads[t] = stockRead{seq: e.Seq, version: r.version[e.Node], value: n}
			return nil
		}
		v, ok := r.written(e)
		if !ok {
			return nil
		}
		read, derived := r.reads[t]
		delete(r.reads, t)
		if derived && read.version != r.version[e.Node] && r.lost == nil {
			r.lost = []int{read.seq, r.version[e.Node], e.Seq}
		}
		n, err := strconv.Atoi(v)
		r.negative = r.negative || err == nil && n < 0
		if derived && read.value > 0 || err == nil && n < 0 {
			r.sales = append(r.sales, e.Seq)
		}
		r.set(e.Node, v, e.Seq)
	}
	return nil
}

// set records that node now holds value, written at version.
func (r *stockRule) set(node, value string, version int) {
	r.version[node] = version
	r.history[node] = append(r.history[node], stockWrite{value, version})
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
	if len(r.sales) > r.initial || r.negative {
		return []sim.Event{verdict(Oversell, r.sales,
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
