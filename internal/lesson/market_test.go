package lesson

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// marketRun is one row of the contention lab's table.
type marketRun struct {
	listed, bought, retries, spins int
}

// market builds seed 003's market: sellers list items, buyers buy them,
// with the buyers guarded by mode: "watch" (WATCH / MULTI / EXEC), "lock"
// (one market-wide lock, sellers take it too) or "item" (a lock per item).
func market(sellers, buyers int, mode string) *scenario.Scenario {
	sc := &scenario.Scenario{ID: fmt.Sprintf("market-%s-%d-%d", mode, sellers, buyers), Seed: 1,
		Horizon: scenario.Duration(time.Second), Network: scenario.Network{Jitter: scenario.Duration(time.Millisecond)}}
	lockParams := map[string]any{"retry": "1ms", "retry_jitter": "2ms", "ttl": "1s", "key": "lock:market"}
	for i := 1; i <= sellers; i++ {
		c := scenario.Client{Name: fmt.Sprintf("S%d", i), Algorithm: "no-lock", Task: "list", Requests: 100000,
			Work: scenario.Duration(10 * time.Millisecond), Start: scenario.Duration(time.Duration(i) * 100 * time.Microsecond)}
		if mode == "lock" {
			c.Algorithm, c.Params = "watch-release", lockParams
		}
		sc.Clients = append(sc.Clients, c)
	}
	for i := 1; i <= buyers; i++ {
		c := scenario.Client{Name: fmt.Sprintf("B%d", i), Requests: 100000, Work: scenario.Duration(5 * time.Millisecond),
			Start: scenario.Duration(time.Duration(i)*100*time.Microsecond + 50*time.Microsecond)}
		switch mode {
		case "watch":
			c.Algorithm, c.Task, c.Params = "watch-multi-exec", "buy", map[string]any{"retry": "1ms", "retry_jitter": "2ms"}
		case "lock":
			c.Algorithm, c.Task, c.Params = "watch-release", "buy", lockParams
		case "item":
			c.Algorithm, c.Task, c.Params = "watch-release", "buy-item", map[string]any{"retry": "1ms", "retry_jitter": "2ms", "ttl": "1s"}
		}
		sc.Clients = append(sc.Clients, c)
	}
	return sc
}

func runMarket(t *testing.T, sc *scenario.Scenario) marketRun {
	t.Helper()
	r, err := New(sc, cfg(sc.Seed))
	if err != nil {
		t.Fatalf("%s: %v", sc.ID, err)
	}
	defer r.Close()
	if err := r.RunToEnd(); err != nil {
		t.Fatal(err)
	}
	var m marketRun
	for _, e := range r.World.Log() {
		switch {
		case e.Kind == sim.KindMark && e.Name == "listed":
			m.listed++
		case e.Kind == sim.KindMark && e.Name == "bought":
			m.bought++
		case e.Kind == sim.KindMark && e.Name == "retry":
			m.retries++
		case e.Kind == sim.KindExec && len(e.Cmd) > 0 && e.Cmd[0] == "SET" && e.Reply == "(nil)":
			m.spins++
		}
	}
	if got := r.Verdicts(); len(got) != 1 || got[0] != "safe" {
		t.Errorf("%s: want safe, got %v", sc.ID, got)
	}
	return m
}

// Seed 003's table, in one virtual second instead of sixty: WATCH retries
// explode as buyers and sellers grow; one market-wide lock gives no
// retries; a lock per item lets more purchases through.
func TestContentionLab(t *testing.T) {
	if testing.Short() {
		t.Skip("the lab runs a few hundred thousand events")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-6s %-18s %7s %7s %8s %10s\n", "mode", "sellers, buyers", "listed", "bought", "retries", "lock spins")
	results := map[string]marketRun{}
	for _, mode := range []string{"watch", "lock", "item"} {
		for _, sb := range [][2]int{{1, 1}, {5, 1}, {5, 5}} {
			m := runMarket(t, market(sb[0], sb[1], mode))
			results[fmt.Sprintf("%s-%d-%d", mode, sb[0], sb[1])] = m
			fmt.Fprintf(&b, "%-6s %-18s %7d %7d %8d %10d\n", mode, fmt.Sprintf("%d, %d", sb[0], sb[1]), m.listed, m.bought, m.retries, m.spins)
		}
	}
	t.Log(b.String())
	w11, w55 := results["watch-1-1"], results["watch-5-5"]
	if w55.retries < 5*w11.retries || w55.retries == 0 {
		t.Errorf("WATCH retries should explode with contention: 1/1 gave %d, 5/5 gave %d", w11.retries, w55.retries)
	}
	if w51 := results["watch-5-1"]; w51.bought*10 > w51.listed {
		t.Errorf("with five sellers one WATCH buyer should buy a small share of what is listed: %d of %d", w51.bought, w51.listed)
	}
	for _, k := range []string{"lock-1-1", "lock-5-1", "lock-5-5"} {
		if results[k].retries != 0 {
			t.Errorf("%s: a lock should need no purchase retries, got %d", k, results[k].retries)
		}
	}
	if results["item-5-5"].bought <= results["lock-5-5"].bought {
		t.Errorf("a lock per item should buy more than one market lock: %d vs %d", results["item-5-5"].bought, results["lock-5-5"].bought)
	}
}

// The lab's scenarios (labs/market.yaml) end with the verdicts they
// expect, like the built-in catalog.
func TestMarketLabScenarios(t *testing.T) {
	f, err := scenario.Load("../../labs/market.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Scenarios) == 0 {
		t.Fatal("labs/market.yaml has no scenarios")
	}
	for i := range f.Scenarios {
		sc := &f.Scenarios[i]
		got, err := replayVerdicts(sc, cfg(sc.Seed))
		if err != nil {
			t.Fatalf("%s: %v", sc.ID, err)
		}
		if !SameVerdicts(got, sc.Expect) {
			t.Errorf("%s: want %v, got %v", sc.ID, sc.Expect, got)
		}
	}
}
