//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/realredis/redistest"
)

// A card's clock-jump counterexample replays on a real redis-server to the
// verdicts it declares for one: the server's clock cannot jump on
// request, so the jump (a schedule entry) is shown as not applied and the
// run goes on to its real_redis verdicts, which visualizer test compares
// with, never a FAIL for the jump it could not make.
func TestCardClockJumpOnRealRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a scenario on a real Redis server")
	}
	cell := visualizer(t, "report", "--cell", "set-nx-ex-blind-del/clock-jump")
	cell.expect(t, "report --cell set-nx-ex-blind-del/clock-jump", 0)
	if !strings.Contains(cell.stdout, "real_redis:") || !strings.Contains(cell.stdout, "do: clock-jump") {
		t.Fatalf("the counterexample has no clock jump, or no real_redis declaration:\n%s", cell.stdout)
	}
	file := filepath.Join(t.TempDir(), "cell.yaml")
	if err := os.WriteFile(file, []byte(cell.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	s := redistest.Start(t)
	r := visualizer(t, "test", "--redis", s.URL(), "--file", file)
	r.expect(t, "test --redis --file "+file, 0)
	if !strings.Contains(r.stdout, "ok   card-set-nx-ex-blind-del-clock-jump-explored") || !strings.Contains(r.stdout, "on real Redis:") {
		t.Errorf("visualizer test --redis:\n%s", r.stdout)
	}
}
