package class

import (
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
)

// A class vote's choices name a clock jump with its sign once: "+2s"
// forward, "-2s" back (not "+-2s").
func TestAFaultLabelSignsAJumpOnce(t *testing.T) {
	for _, c := range []struct {
		by   time.Duration
		want string
	}{{2 * time.Second, "clock-jump r1 +2s"}, {-2 * time.Second, "clock-jump r1 -2s"}} {
		got := faultLabel(scenario.Fault{Do: "clock-jump", Node: "r1", By: scenario.Duration(c.by)}).En
		if got != c.want {
			t.Errorf("a jump by %v is labelled %q, want %q", c.by, got, c.want)
		}
	}
}
