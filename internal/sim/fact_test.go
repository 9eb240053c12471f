package sim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// Every fault kind whose amount is required says what it needs in both
// languages: a row added to Actions with a hint, but no Chinese for it in
// the catalogue, fails here.
func TestEveryRequiredAmountIsSaidInChinese(t *testing.T) {
	for _, a := range sim.Actions {
		if !a.Required {
			continue
		}
		got := (&fact.Fact{Key: fact.NeedsAmount, Item: a.Do, Value: a.Amount.Field(), Text: a.Hint}).Render()
		if got.En != a.NeedsAmount() {
			t.Errorf("%s: the catalogue says %q, the vocabulary %q", a.Do, got.En, a.NeedsAmount())
		}
		if strings.HasSuffix(got.Zh, "：") {
			t.Errorf("%s: no Chinese for its hint %q", a.Do, a.Hint)
		}
	}
}

// A refused fault is ErrBadFault, and states why as a fact the page can
// say in either language.
func TestARefusedFaultStatesWhy(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1})
	w.AddNodeOn("redis", embedded.New(1))
	err := w.Apply(sim.Fault{Kind: sim.FaultNodeRestart, Node: "redis"})
	if !errors.Is(err, sim.ErrBadFault) {
		t.Fatalf("a restart of a node that is up: %v, want ErrBadFault", err)
	}
	f := fact.Error(err)
	if f.Key != fact.BadFault || f.Reason.Key != fact.NotDown || f.Reason.Node != "redis" {
		t.Errorf("its fact is %+v", f)
	}
	if got := f.Render(); got.En != "sim: bad fault: redis is not down" || !strings.Contains(got.Zh, "没有宕机") {
		t.Errorf("it says %+v", got)
	}
	if err := w.Apply(sim.Fault{Kind: sim.FaultCrash, Client: "nobody"}); !errors.Is(err, sim.ErrUnknownClient) || fact.Error(err).Key != fact.UnknownClient {
		t.Errorf("a crash of an unknown client: %v", err)
	}
}
