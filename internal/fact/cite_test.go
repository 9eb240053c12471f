package fact

import (
	"fmt"
	"strings"
	"testing"
)

// A sentence formatted with Seqs carries its citations as data: its text
// is the plain sentence ("#12"), and a view that numbers events otherwise
// writes its own numbers where the citations stand, in both languages,
// without reading the sentence; a number in the sentence that is no Seq
// (a count, a token, a key named #3) is left as it is.
func TestCitedSentenceCarriesItsCitations(t *testing.T) {
	x := Cited(fmt.Sprintf("key #3: %s entered at #%d while %s, at #%d, was inside (token %d)", "B", Seq(12), "A", Seq(7), 12),
		fmt.Sprintf("key #3：%s（#%d 进入）时 %s（#%d 进入）还在里面（token %d）", "A", Seq(7), "B", Seq(12), 12))
	if want := "key #3: B entered at #12 while A, at #7, was inside (token 12)"; x.En != want {
		t.Fatalf("En = %q, want %q", x.En, want)
	}
	if want := "key #3：A（#7 进入）时 B（#12 进入）还在里面（token 12）"; x.Zh != want {
		t.Fatalf("Zh = %q, want %q", x.Zh, want)
	}
	if len(x.Cites) != 4 {
		t.Fatalf("cites = %+v, want 4", x.Cites)
	}
	rows := map[int]int{12: 10}
	got := x.Cite(func(seq int) (string, string, bool) {
		n, ok := rows[seq]
		return fmt.Sprintf("row %d", n), fmt.Sprintf("第 %d 行", n), ok
	})
	if want := "key #3: B entered at row 10 while A, at #7, was inside (token 12)"; got.En != want {
		t.Errorf("En = %q, want %q", got.En, want)
	}
	if want := "key #3：A（#7 进入）时 B（第 10 行 进入）还在里面（token 12）"; got.Zh != want {
		t.Errorf("Zh = %q, want %q", got.Zh, want)
	}
	if got.Cites != nil {
		t.Errorf("the written text still cites %+v", got.Cites)
	}
}

// A fact within a fact keeps its citations: the shipment a lost ship
// names cites its write.
func TestNestedFactKeepsItsCitations(t *testing.T) {
	f := &Fact{Key: ShipLost, Replica: "replica", What: &Fact{Key: Shipped, Node: "redis", Cmds: []string{"SET lock x"}, Write: 5}}
	w := f.Render()
	got := w.Cite(func(seq int) (string, string, bool) {
		return fmt.Sprintf("row %d", seq+1), fmt.Sprintf("第 %d 行", seq+1), true
	})
	for _, s := range []string{w.En, w.Zh} {
		if !strings.Contains(s, "#5") {
			t.Errorf("%q does not cite #5", s)
		}
	}
	if !strings.Contains(got.En, "the write at row 6") || !strings.Contains(got.Zh, "第 6 行 的写入") {
		t.Errorf("cited: %+v", got)
	}
}
