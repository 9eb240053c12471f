package reference

// The stock's versions, reads and writes, and the oversell and lost-update verdicts.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// stockSeen updates a node's stock version from an event that is no
// client's command: init, expire, replicate, a node's restart.
func (m *model) stockSeen(e *sim.Event, n *node, ks sim.KeyState) {
	if m.opt.StockKey == "" || ks.Key != m.opt.StockKey {
		return
	}
	if !ks.Exists() {
		n.stock, n.latest, n.handedAt = version{}, version{}, 0
		return
	}
	if n.stock.id != 0 && n.stock.value == ks.Value {
		return
	}
	v := version{id: e.Seq, value: ks.Value}
	if master, ok := m.opt.ReplicaOf[e.Node]; ok && (e.Kind == sim.KindReplicate || e.Kind == sim.KindInit) {
		hist := m.node(master).stocks
		for i := len(hist) - 1; i >= 0; i-- {
			if hist[i].value == ks.Value {
				v = hist[i]
				break
			}
		}
	} else if e.Kind == sim.KindInit && m.initial == nil {
		val := ks.Value
		m.initial = &val
	}
	n.hold(v)
}

// hold: the node now holds version v, its latest.
func (n *node) hold(v version) {
	n.stock, n.latest, n.handedAt = v, v, 0
	n.stocks = append(n.stocks, v)
}

// failoverStock: the replicas a failover promotes inherit their old
// master's latest version, when they do not hold it, as the one a write
// overwrites.
func (m *model) failoverStock(e *sim.Event) {
	master := m.node(e.Node)
	if m.opt.StockKey == "" || master.latest.id == 0 {
		return
	}
	for rep, of := range m.opt.ReplicaOf {
		if n := m.node(rep); of == e.Node && n.stock.id != master.latest.id {
			n.latest, n.handedAt = master.latest, e.Seq
		}
	}
}

// stockRead: an exec of GET stock reads the version the node holds.
func (m *model) stockRead(e *sim.Event, n *node, t threadID, ks sim.KeyState) {
	if m.opt.StockKey == "" || ks.Key != m.opt.StockKey || len(e.Cmd) < 2 || !strings.EqualFold(e.Cmd[0], "GET") {
		return
	}
	if ks.Exists() && (n.stock.id == 0 || n.stock.value != ks.Value) {
		// A version the model did not see written: name it by this event.
		n.hold(version{id: e.Seq, value: ks.Value})
	}
	m.thread(t).lastRead = &read{seq: e.Seq, ver: n.stock}
}

// stockWrite: an executed SET stock v, alone or in a MULTI whose EXEC was
// not refused, is a write derived from the thread's latest read.
func (m *model) stockWrite(e *sim.Event, n *node, t threadID, ks sim.KeyState) {
	if m.opt.StockKey == "" || ks.Key != m.opt.StockKey {
		return
	}
	value, ok := setStock(e.Cmd, m.opt.StockKey)
	if ok && strings.EqualFold(e.Cmd[0], "MULTI") {
		// the EXEC's typed answer: (nil) when a WATCHed key changed, an
		// error when the batch was aborted or the node refused it
		switch e.Answer.Type {
		case "", sim.AnswerNil, sim.AnswerError, sim.AnswerRefused:
			ok = false
		}
	}
	if !ok {
		return
	}
	m.writes = append(m.writes, &write{seq: e.Seq, value: value, from: m.thread(t).lastRead, latest: n.latest, handed: n.handedAt})
	n.hold(version{id: e.Seq, value: value})
}

// setStock finds SET key v in a command, alone or queued in a MULTI.
func setStock(cmd []string, stock string) (string, bool) {
	var part []string
	parts := [][]string{}
	for _, a := range append(slices.Clone(cmd), "|") {
		if a == "|" {
			parts = append(parts, part)
			part = nil
			continue
		}
		part = append(part, a)
	}
	for _, p := range parts {
		if len(p) >= 3 && strings.EqualFold(p[0], "SET") && p[1] == stock {
			return p[2], true
		}
	}
	return "", false
}

// stock: oversell, or else the first lost update.
func (m *model) stock() []Verdict {
	initial := 0
	if m.initial != nil {
		initial, _ = strconv.Atoi(*m.initial)
	}
	var positive, negative []int
	for _, w := range m.writes {
		if w.from != nil {
			if v, err := strconv.Atoi(w.from.ver.value); err == nil && w.from.ver.id != 0 && v > 0 {
				positive = append(positive, w.seq)
			}
		}
		if v, err := strconv.Atoi(w.value); err == nil && v < 0 {
			negative = append(negative, w.seq)
		}
	}
	if len(positive) > initial || len(negative) > 0 {
		return []Verdict{{Name: oversell, Refs: refs(append(positive, negative...)...)}}
	}
	for _, w := range m.writes {
		// A node that lost the stock (restarted empty) overwrote nothing:
		// there must be a write in between for the update to be lost. On a
		// promoted replica it may be one its old master executed and lost
		// in the failover (which proves it too).
		if w.from != nil && w.latest.id != 0 && w.from.ver.id != w.latest.id {
			return []Verdict{{Name: lostUpdate, Refs: refs(w.from.seq, w.latest.id, w.seq, w.handed)}}
		}
	}
	return nil
}
