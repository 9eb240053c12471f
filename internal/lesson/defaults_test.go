package lesson

import (
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/scenario"
)

// A scenario and its scenario.WithDefaults copy run event for event the
// same: the engine's defaults are the function's. A default the engine
// read elsewhere (another horizon, timeout, latency, node) would change
// the log.
func TestDefaultsAreTheEngines(t *testing.T) {
	f, err := scenario.Load("../../labs/your-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc := f.Scenarios[0]
	sc.Horizon, sc.Network = 0, scenario.Network{} // left to the defaults
	logOf := func(s *scenario.Scenario) string {
		r, err := New(s, cfg(s.Seed))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if err := r.RunToEnd(); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range r.World.Log() {
			b.WriteString(e.String() + "\n")
		}
		return b.String()
	}
	bare, full := logOf(&sc), logOf(scenario.WithDefaults(&sc))
	if bare != full {
		t.Errorf("the run with the defaults written in differs:\n%s\n---\n%s", bare, full)
	}
	if !strings.Contains(full, "redis") {
		t.Error("the run has no node redis")
	}
}
