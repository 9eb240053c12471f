package gen

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// One seed, one corpus: the same seed and index make the same YAML, byte
// for byte, and another index makes another scenario.
func TestGenerateIsDeterministic(t *testing.T) {
	for i := range 20 {
		a, b := Generate(7, i), Generate(7, i)
		if !bytes.Equal(a.YAML, b.YAML) {
			t.Fatalf("scenario %d differs between two draws:\n%s\n---\n%s", i, a.YAML, b.YAML)
		}
	}
	if bytes.Equal(Generate(7, 0).YAML, Generate(7, 1).YAML) {
		t.Error("scenarios 0 and 1 are the same")
	}
}

// Almost every generated scenario passes the validator, and every one has
// 2-5 clients.
func TestGenerateIsValid(t *testing.T) {
	refused := 0
	for i := range 200 {
		g := Generate(3, i)
		if g.Scenario == nil {
			refused++
			t.Logf("scenario %d refused: %v\n%s", i, g.Err, g.YAML)
			continue
		}
		if n := len(g.Scenario.Clients); n < 2 || n > 5 {
			t.Errorf("scenario %d has %d clients, want 2-5", i, n)
		}
	}
	if refused > 10 {
		t.Errorf("%d of 200 generated scenarios refused, want at most 10", refused)
	}
}

// A fault kind with no case in randomFault is made from its row alone: a
// throwaway kind, declared here only, gets the target its row names and,
// its amount being required, a size every time; the same row with the
// amount optional is left without one some of the time, and a link kind
// names its client some of the time.
func TestAKindWithoutACaseIsMadeFromItsRow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	node := sim.Action{Do: "throwaway", Fault: true, Target: sim.TargetNode, Amount: sim.AmountDuration, Required: true}
	for range 50 {
		f := fromRow(r, node, "A", "redis")
		if f.Do != "throwaway" || f.Node != "redis" || f.Client != "" || f.For <= 0 {
			t.Fatalf("a node kind with a required duration: got %+v", f)
		}
	}
	link := sim.Action{Do: "throwaway", Fault: true, Target: sim.TargetLink, Amount: sim.AmountJump}
	var clients, sized int
	for range 200 {
		f := fromRow(r, link, "A", "redis")
		if f.Node != "redis" || f.For != 0 {
			t.Fatalf("a link kind with a jump: got %+v", f)
		}
		if f.Client == "A" {
			clients++
		}
		if f.By != 0 {
			sized++
		}
	}
	if clients == 0 || clients == 200 || sized == 0 || sized == 200 {
		t.Errorf("of 200 link faults %d named the client and %d had a size: want some of each, not all", clients, sized)
	}
}
