package sim_test

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/lockstep/lockstep/internal/sim"
)

// The table's rows say consistent things: a name once; an amount that is
// required has a hint for its problem; the search sizes, and the menu
// gives a default to, only a kind that has an amount; only node and link
// kinds say which nodes they apply to, and every one on the menu does.
func TestActionsTableIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range sim.Actions {
		if seen[a.Do] {
			t.Errorf("%s: declared twice", a.Do)
		}
		seen[a.Do] = true
		hasAmount := a.Amount != sim.AmountNone
		if a.Amount.Field() == "" && hasAmount {
			t.Errorf("%s: amount %s has no field", a.Do, a.Amount)
		}
		if a.Required != (a.Hint != "") || a.Required && !hasAmount {
			t.Errorf("%s: required %v, hint %q, amount %s: a required amount needs a hint, and only it", a.Do, a.Required, a.Hint, a.Amount)
		}
		if a.Search == sim.SearchSized && !hasAmount || a.Default != 0 && !hasAmount {
			t.Errorf("%s: sized by the search or given a default, but it takes no amount", a.Do)
		}
		if a.Search != sim.SearchNever && !a.Fault || a.Menu && !a.Fault {
			t.Errorf("%s: not a fault, yet searched or on the menu", a.Do)
		}
		onNode := a.Target == sim.TargetNode || a.Target == sim.TargetLink
		if a.Applies != "" && !onNode || a.Menu && onNode && a.Applies == "" {
			t.Errorf("%s: target %s, applies %q: node and link kinds on the menu say which nodes they hit, and only they", a.Do, a.Target, a.Applies)
		}
	}
	for _, k := range []sim.FaultKind{sim.FaultCrash, sim.FaultRestart, sim.FaultPause, sim.FaultDropRequest, sim.FaultDropReply,
		sim.FaultPartition, sim.FaultHeal, sim.FaultNodeCrash, sim.FaultNodeRestart, sim.FaultClockJump, sim.FaultSkew, sim.FaultFailover} {
		if _, ok := k.Spec(); !ok {
			t.Errorf("fault kind %s has no row in sim.Actions", k)
		}
	}
}

// Every fault kind of the table has its case in World.Apply (a kind
// without one panics there), and the event that logs it has the kind's
// name. Each is applied to client A and node redis of a fresh world, with
// what it needs first (a crash before a restart), the menu's default or
// 1s as its amount. A failover needs a master with a replica: here the
// engine refuses it, and says why.
func TestEveryFaultKindHasAnEngineCase(t *testing.T) {
	for _, k := range sim.FaultKinds {
		t.Run(string(k), func(t *testing.T) {
			a, _ := k.Spec()
			w := newStockWorld(t, 1)
			if !w.Step() {
				t.Fatal("the world ended at its first step")
			}
			f := sim.Fault{Kind: k, Client: "A", Node: "redis", For: a.Default, By: a.Default}
			if a.Default == 0 {
				f.For, f.By = time.Second, time.Second
			}
			switch k {
			case sim.FaultRestart:
				if err := w.Apply(sim.Fault{Kind: sim.FaultCrash, Client: "A"}); err != nil {
					t.Fatal(err)
				}
			case sim.FaultNodeRestart:
				if err := w.Apply(sim.Fault{Kind: sim.FaultNodeCrash, Node: "redis"}); err != nil {
					t.Fatal(err)
				}
			}
			err := w.Apply(f)
			if k == sim.FaultFailover {
				if !errors.Is(err, sim.ErrBadFault) {
					t.Fatalf("a failover of a node without a replica: want ErrBadFault, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			log := w.Log()
			if e := log[len(log)-1]; e.Kind != sim.KindFault || e.Name != string(k) || e.Fact == nil {
				t.Errorf("last event %v: want the fault %s, with a note", e, k)
			}
		})
	}
}

// A fault without the amount its kind requires is refused by the engine
// with the scenario checker's sentence.
func TestRequiredAmountIsRefused(t *testing.T) {
	w := newStockWorld(t, 1)
	for _, k := range []sim.FaultKind{sim.FaultPause, sim.FaultClockJump} {
		a, _ := k.Spec()
		err := w.Apply(sim.Fault{Kind: k, Client: "A", Node: "redis"})
		if !errors.Is(err, sim.ErrBadFault) || err.Error() != sim.ErrBadFault.Error()+": "+a.NeedsAmount() {
			t.Errorf("%s without its amount: got %v, want %q", k, err, a.NeedsAmount())
		}
	}
}

// Every action has one name in 中文, which every Chinese sentence that
// names a fault uses (the class's questions, the side by side's places):
// two tables of names had drifted apart (暂停 and 停顿, 时钟偏移 and 时钟漂移).
func TestEveryActionHasOneChineseName(t *testing.T) {
	seen := map[string]string{}
	for _, a := range sim.Actions {
		if !strings.ContainsFunc(a.Zh, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("%s: no Chinese name (Zh %q)", a.Do, a.Zh)
		}
		if other, ok := seen[a.Zh]; ok {
			t.Errorf("%s and %s are both called %s", other, a.Do, a.Zh)
		}
		seen[a.Zh] = a.Do
		if got := sim.ZhName(a.Do); got != a.Zh {
			t.Errorf("sim.ZhName(%s) = %q, want %q", a.Do, got, a.Zh)
		}
	}
	if got := sim.ZhName("no-such-fault"); got != "no-such-fault" {
		t.Errorf("ZhName of an unknown action = %q, want the action itself", got)
	}
}
