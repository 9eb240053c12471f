package gen

import (
	"bytes"
	"testing"
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
