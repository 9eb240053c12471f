package embedded_test

import (
	"testing"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/sim/simtest"
)

// Embedded Redis meets the backend contract.
func TestMiniredisBackendContract(t *testing.T) {
	simtest.RunBackendContract(t, func(t *testing.T) simtest.Setup {
		return simtest.Setup{Backend: embedded.New(1), ClockJumps: true}
	})
}
