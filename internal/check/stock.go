package check

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/fact"
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
//     write derived from a version that was no longer the latest when it
//     executed, so the write in between was overwritten unseen. The latest
//     is the node's own last version, except on a replica promoted by a
//     failover: there it is the old master's last version, which the
//     replica may never have received (a write the master executed, then
//     lost with it). A node that lost the stock (restarted empty) holds
//     none and overwrote nothing.
type stockRule struct {
	key      string
	initial  int
	hasStock bool
	current  map[string]version   // node -> the version it holds (id 0: none)
	latest   map[string]version   // node -> the latest version, to overwrite unseen (a promoted replica's: its old master's)
	handed   map[string]handover  // promoted replica -> the failover that handed it its master's latest version
	history  map[string][]version // node -> versions it held, in order
	reads    map[thread]stockRead
	sales    []int     // writes derived from reads of a positive stock
	negative []int     // writes below zero
	lost     []int     // read, overwritten version, overwriting write (and the failover): the first found
	lostBy   thread    // the thread whose write it was
	lostOn   *handover // the failover that lost the overwritten write with its master, if one did
	lostWas  bool      // the overwritten version was a client's write (not a value first seen by a read)
}

// version is one value of the stock on a node, named by the event that
// wrote it (or first showed it).
type version struct {
	id    int
	value string
	wrote bool // a client's write (not an init, nor a value first seen by a read)
}

// handover is a failover that made a replica the master while its old
// master's latest version was one it did not hold.
type handover struct {
	seq          int
	master       string
	overwritable version
}

type stockRead struct {
	seq int
	ver version
}

func newStockRule(key string) *stockRule {
	return &stockRule{key: key, current: map[string]version{}, latest: map[string]version{}, handed: map[string]handover{},
		history: map[string][]version{}, reads: map[thread]stockRead{}}
}

func (r *stockRule) observe(e *sim.Event, _ []change, m *model) []claimed {
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
	if e.Kind == sim.KindFault && e.Name == string(sim.FaultFailover) && e.Applied() {
		r.failover(e, m)
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
			cur = version{e.Seq, state.Value, false} // a version the checker did not see written
			r.current[e.Node], r.latest[e.Node] = cur, cur
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
	latest := r.latest[e.Node]
	if derived && latest.id != 0 && read.ver.id != latest.id && r.lost == nil {
		r.lost, r.lostBy, r.lostWas = []int{read.seq, latest.id, e.Seq}, t, latest.wrote
		if h, ok := r.handed[e.Node]; ok && h.overwritable.id == latest.id {
			r.lostOn = &h
			r.lost = append(r.lost, h.seq)
		}
	}
	if n, err := strconv.Atoi(read.ver.value); derived && read.ver.id != 0 && err == nil && n > 0 {
		r.sales = append(r.sales, e.Seq)
	}
	if n, err := strconv.Atoi(v); err == nil && n < 0 {
		r.negative = append(r.negative, e.Seq)
	}
	r.set(e.Node, version{e.Seq, v, true})
	return nil
}

// seen updates a node's stock from an event that is no client's command:
// init, expire, replicate, a node's restart. A replica's copy is the
// version its master wrote.
func (r *stockRule) seen(e *sim.Event, m *model, k sim.KeyState) {
	if !k.Exists() {
		r.current[e.Node], r.latest[e.Node] = version{}, version{}
		return
	}
	if cur := r.current[e.Node]; cur.id != 0 && cur.value == k.Value {
		return
	}
	v := version{e.Seq, k.Value, false}
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

// set records that node now holds version v, its latest.
func (r *stockRule) set(node string, v version) {
	r.current[node], r.latest[node] = v, v
	delete(r.handed, node)
	r.history[node] = append(r.history[node], v)
}

// failover hands a failed-over master's latest version to the replicas it
// promotes: a write derived from what a replica holds, when the master had
// moved past it, overwrites that version unseen.
func (r *stockRule) failover(e *sim.Event, m *model) {
	v := r.latest[e.Node]
	for rep, master := range m.opt.ReplicaOf {
		if master != e.Node || v.id == 0 || r.current[rep].id == v.id {
			continue
		}
		r.latest[rep] = v
		r.handed[rep] = handover{seq: e.Seq, master: e.Node, overwritable: v}
	}
}

// written is the stock value an exec wrote: SET stock v that answered OK,
// alone or inside a MULTI ... EXEC that was not refused, as the exec's
// typed answer says (a batch's answer is its EXEC's).
func (r *stockRule) written(e *sim.Event) (string, bool) {
	cmd := e.Cmd
	batch := len(cmd) > 0 && strings.EqualFold(cmd[0], "MULTI")
	if batch && !execRan(e.Answer) {
		return "", false
	}
	if !batch && (e.Answer.Type != sim.AnswerOK || slices.Contains(cmd, "|")) {
		return "", false
	}
	for i := 0; i+2 < len(cmd); i++ {
		if strings.EqualFold(cmd[i], "SET") && cmd[i+1] == r.key && (i == 0 || cmd[i-1] == "|") {
			return cmd[i+2], true
		}
	}
	return "", false
}

// execRan reports whether an EXEC ran the commands queued before it, by
// its typed answer: an array of their answers (or the one answer of a
// single command), not (nil) (a WATCHed key changed), an error
// (EXECABORT) or a refused connection.
func execRan(a sim.Answer) bool {
	switch a.Type {
	case "", sim.AnswerNil, sim.AnswerError, sim.AnswerRefused:
		return false
	}
	return true
}

func (r *stockRule) finish(*model) []claimed {
	if !r.hasStock {
		return nil
	}
	if len(r.sales) > r.initial || len(r.negative) > 0 {
		claims := []Claim{{Kind: ClaimInitial, N: int64(r.initial)}, {Kind: ClaimSales, N: int64(len(r.sales))}}
		var en, zh []string
		if len(r.sales) > r.initial {
			en = append(en, fact.Say("check.stock-held-but-deductions-were", r.initial, len(r.sales)).En)
			zh = append(zh, fact.Say("check.stock-held-but-deductions-were", r.initial, len(r.sales)).Zh)
		}
		for _, w := range r.negative {
			claims = append(claims, Claim{Kind: ClaimNegative, At: w})
			en = append(en, fact.Say("check.write-set-stock-below-zero", fact.Seq(w)).En)
			zh = append(zh, fact.Say("check.write-set-stock-below-zero", fact.Seq(w)).Zh)
		}
		return []claimed{verdict(Oversell, append(r.sales, r.negative...), strings.Join(en, " "), strings.Join(zh, ""), claims...)}
	}
	if r.lost == nil {
		return nil
	}
	read, over, w := r.lost[0], r.lost[1], r.lost[2]
	claims := []Claim{r.lostBy.claim(ClaimDerived, Claim{At: w, Until: read}), {Kind: ClaimOverwrote, At: w, Until: over}}
	if h := r.lostOn; h != nil {
		claims = append(claims, Claim{Kind: ClaimFailover, At: h.seq, Node: h.master, Until: over})
		return []claimed{verdict(LostUpdate, r.lost,
			fact.Say("check.write-was-derived-from-stock", fact.Seq(w), fact.Seq(read), h.master, fact.Seq(over), fact.Seq(h.seq)).En,
			fact.Say("check.write-was-derived-from-stock", fact.Seq(w), fact.Seq(read), h.master, fact.Seq(over), fact.Seq(h.seq)).Zh, claims...)}
	}
	if r.lostWas {
		return []claimed{verdict(LostUpdate, r.lost,
			fact.Say("check.write-was-derived-from-stock-2", fact.Seq(w), fact.Seq(read), fact.Seq(over)).En,
			fact.Say("check.write-was-derived-from-stock-2", fact.Seq(w), fact.Seq(read), fact.Seq(over)).Zh, claims...)}
	}
	return []claimed{verdict(LostUpdate, r.lost,
		fact.Say("check.write-was-derived-from-stock-3", fact.Seq(w), fact.Seq(read), fact.Seq(over)).En,
		fact.Say("check.write-was-derived-from-stock-3", fact.Seq(w), fact.Seq(read), fact.Seq(over)).Zh, claims...)}
}
