package lesson

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/check"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// Three fenced writers, A paused for 6s inside: B (token 2) and then C
// (token 3) take the expired lock and write before A wakes. Argued before
// running: A's write with token 1 is refused against the highest token the
// storage has seen, 3 (C's), and the first token issued after A's own was
// B's 2: one kept line, "refused A's write with token 1 after token 3",
// citing B's token. B's and C's own writes are accepted (each held the
// lock then): no line for them. Mutual exclusion still breaks (A is
// inside while B enters).
const threeFencedWriters = `
scenarios:
  - id: three-fenced-writers
    title: {en: "A wakes after two later holders wrote"}
    horizon: 20s
    storage: {fencing: true}
    clients:
      - {name: A, algorithm: fencing-token, params: {ttl: 2s, retry: 500ms}, task: write, work: 100ms}
      - {name: B, algorithm: fencing-token, params: {ttl: 2s, retry: 500ms}, task: write, work: 100ms, start: 100ms}
      - {name: C, algorithm: fencing-token, params: {ttl: 2s, retry: 500ms}, task: write, work: 100ms, start: 200ms}
    faults:
      - {on: {kind: mark, name: enter, client: A}, do: pause, client: A, for: 6s}
`

// keptRun runs a scenario to its end in a session and gives its kept
// lines, as the session's view has them (what a server sends), and log.
func keptRun(t *testing.T, sc *scenario.Scenario, seed int64) ([]check.Kept, []*sim.Event) {
	t.Helper()
	s, err := NewSession(sc, cfg(seed))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	return s.View().Kept, s.Log()
}

// refusals are the storage's refusals of a write for an older token.
func refusals(log []*sim.Event) []*sim.Event {
	var out []*sim.Event
	for _, e := range log {
		if e.Kind == sim.KindExec && e.Fact != nil && e.Fact.Key == fact.RejectedOlder {
			out = append(out, e)
		}
	}
	return out
}

// The fencing lesson ends red (A was inside while B entered), but its
// point is that the storage refused A's stale write: the checker says so,
// from the refusal's own fact, in both languages, citing the refusal.
func TestAFencedStorageRefusingAStaleWriteIsSaid(t *testing.T) {
	f := catalog(t)
	for _, c := range []struct {
		id     string
		want   string // the refused write, as the line names it
		wantZh string
	}{
		{"fencing-token-rejects-stale", "refused A's write with token 1 after token 2", "拒绝了 A 带着 token 1 的写入，因为它已见过 token 2"},
		{"lease-pause-stale-write", "", ""}, // no fencing: the write lands, no line
	} {
		sc, ok := f.Find(c.id)
		if !ok {
			t.Fatalf("%s: not in the catalog", c.id)
		}
		kept, log := keptRun(t, sc, sc.Seed)
		if c.want == "" {
			if len(kept) != 0 {
				t.Errorf("%s: want no kept line, got %v", c.id, kept)
			}
			continue
		}
		rs := refusals(log)
		if len(kept) != 1 || len(rs) != 1 {
			t.Fatalf("%s: want one kept line for one refusal, got %v (refusals %d)", c.id, kept, len(rs))
		}
		k := kept[0]
		if k.Name != sim.VerdictStaleWrite || k.Seq != rs[0].Seq || !slices.Contains(k.Refs, rs[0].Seq) {
			t.Errorf("%s: kept %+v, want stale-write at the refusal #%d", c.id, k, rs[0].Seq)
		}
		if !strings.Contains(k.Say.En, c.want) || !strings.Contains(k.Say.Zh, c.wantZh) {
			t.Errorf("%s: kept line\n en %q\n zh %q\nwant %q / %q", c.id, k.Say.En, k.Say.Zh, c.want, c.wantZh)
		}
	}
}

func TestAStaleWriteRefusedAfterTwoLaterHolders(t *testing.T) {
	f, err := scenario.Parse("three.yaml", []byte(threeFencedWriters))
	if err != nil {
		t.Fatal(err)
	}
	kept, log := keptRun(t, &f.Scenarios[0], 1)
	rs := refusals(log)
	if len(kept) != 1 || len(rs) != 1 {
		t.Fatalf("want one kept line for one refusal, got %v (refusals %d)", kept, len(rs))
	}
	var bToken int
	for _, e := range log {
		if n, ok := e.FencingToken(); ok && e.Client == "B" {
			bToken = e.Seq
			if n != 2 {
				t.Fatalf("B's token is %d, want 2", n)
			}
		}
	}
	want := "refused A's write with token 1 after token 3: A no longer held lock"
	if en := kept[0].Say.En; !strings.Contains(en, want) || !strings.Contains(en, fmt.Sprintf("B had been issued token 2 at #%d", bToken)) {
		t.Errorf("kept line %q, want %q and B's token at #%d", en, want, bToken)
	}
}
