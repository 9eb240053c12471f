package report

import (
	"strings"
	"testing"
)

// row makes a row whose cells have the kinds given, column by column.
func rowOf(kinds ...string) *Row {
	r := &Row{Algorithm: "x"}
	for i, k := range kinds {
		c := &Cell{Column: Columns[i].ID, Kind: k}
		if k == Fails {
			c.Verdict = "mutual-exclusion"
		}
		r.Cells = append(r.Cells, c)
	}
	return r
}

// The row's sentence is read from its cells: contention alone failing
// says never across processes; otherwise the faults survived are what it
// may be used against, the faults that broke it when never to; n/a cells
// say nothing.
func TestAdviceFromCells(t *testing.T) {
	for _, tc := range []struct {
		kinds  []string
		en, zh []string // substrings each language must hold
		not    []string // substrings the English must not hold
	}{
		{[]string{Fails, NA, Fails, Fails, NA, NA, NA, NA},
			[]string{"Never use it to keep two processes apart", "(mutual-exclusion)"}, []string{"不要用它让两个进程互斥"}, []string{"Use it when"}},
		{[]string{Holds, Holds, Fails, Holds, Fails, NotFound, Fails, NA},
			[]string{"Use it when a lost reply, a crash while holding and a restart without persistence (sampled, not proven) are all you fear",
				"never when a pause longer than the lease, a clock jump on a node or a failover before replication can happen"},
			[]string{"如果你只担心丢失回复、持锁时崩溃和无持久化重启（抽样，未证明）", "只要可能出现超过租约的停顿、节点时钟跳变或复制前的主从切换"}, []string{"partition"}},
		{[]string{Holds, Holds, Holds, NotFound, NA, NA, NA, NA},
			[]string{"Use it when any of these faults can happen", "3 proven within their bound, 1 only sampled"}, []string{"3 格在界限内得到证明，1 格只是抽样"}, []string{"never"}},
		{[]string{Holds, Holds, Unsearched, Holds, Unsearched, NA, NA, NA},
			[]string{"Use it when a lost reply and a crash while holding are all you fear: no finished search broke it",
				"Nothing is said of a pause longer than the lease or a clock jump on a node: not searched to its end."},
			[]string{"如果你只担心丢失回复和持锁时崩溃", "对超过租约的停顿或节点时钟跳变什么也没说明"}, []string{"any of these faults", "never"}},
		{[]string{Unsearched, Unsearched, Unsearched, NA, NA, NA, NA, NA},
			[]string{"No advice: none of its cells was searched to its end"}, []string{"没有建议"}, []string{"Use it"}},
		{[]string{Holds, Unsearched, Fails, NA, NA, NA, NA, NA},
			[]string{"Use it only when none of these faults can happen; never when a pause longer than the lease can.", "Nothing is said of a lost reply"}, []string{"对丢失回复什么也没说明"}, nil},
		{[]string{Holds, Fails, Fails, NA, NA, NA, NA, NA},
			[]string{"Use it only when none of these faults can happen; never when a lost reply or a pause longer than the lease can."}, []string{"只有在这些故障都不会发生时才能用"}, nil},
	} {
		a := Advice(rowOf(tc.kinds...))
		for _, s := range tc.en {
			if !strings.Contains(a.En, s) {
				t.Errorf("%v: %q lacks %q", tc.kinds, a.En, s)
			}
		}
		for _, s := range tc.zh {
			if !strings.Contains(a.Zh, s) {
				t.Errorf("%v: %q lacks %q", tc.kinds, a.Zh, s)
			}
		}
		for _, s := range tc.not {
			if strings.Contains(a.En, s) {
				t.Errorf("%v: %q should not say %q", tc.kinds, a.En, s)
			}
		}
	}
}

// A fault that cannot reach a lock is n/a, with the reason, and is not
// searched: the network and node columns for the in-process mutex and for
// no lock at all, every node column and the lost reply for the SQL lock
// (the engine's faults hit Redis nodes), and failover for Redlock, whose
// masters have no replicas. Every other cell of those locks is searched.
func TestNotApplicable(t *testing.T) {
	want := map[string][]string{
		"local-mutex":        {"lost-reply", "clock-jump", "restart", "failover", "partition"},
		"no-lock":            {"lost-reply", "clock-jump", "restart", "failover", "partition"},
		"mysql-unique-key":   {"lost-reply", "clock-jump", "restart", "failover", "partition"},
		"redlock":            {"failover"},
		"lua-compare-delete": nil,
	}
	for id, cols := range want {
		p := probe(t, id)
		for _, col := range Columns {
			why := notApplicable(p, &col)
			na := why != nil
			if na != contains(cols, col.ID) {
				t.Errorf("%s under %s: n/a %v, want %v", id, col.ID, na, !na)
			}
			if na && (why.En == "" || why.Zh == "") {
				t.Errorf("%s under %s: n/a without a reason in both languages: %+v", id, col.ID, why)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
