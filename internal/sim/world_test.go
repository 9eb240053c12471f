package sim_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/sim"
)

// deduct is the bare read-modify-write of seed 000: GET stock; SET stock n-1.
func deduct(work time.Duration) sim.Program {
	return func(ctx context.Context, p *sim.Proc) error {
		r := p.Redis("redis")
		v, err := r.Get(ctx, "stock").Result()
		if err != nil {
			return err
		}
		n, _ := strconv.Atoi(v)
		if n <= 0 {
			p.Mark("sold-out", nil)
			return nil
		}
		if err := p.Sleep(ctx, work); err != nil {
			return err
		}
		if err := r.Set(ctx, "stock", n-1, 0).Err(); err != nil {
			return err
		}
		p.Mark("deduct", nil)
		return nil
	}
}

func newStockWorld(t *testing.T, seed int64) *sim.World {
	t.Helper()
	w := sim.New(sim.Config{Seed: seed})
	t.Cleanup(w.Close)
	w.AddNodeOn("redis", embedded.New(seed))
	if err := w.Init("redis", map[string]string{"stock": "1"}, []string{"stock"}); err != nil {
		t.Fatal(err)
	}
	w.AddClient("A", deduct(10*time.Millisecond), sim.ClientOptions{})
	w.AddClient("B", deduct(10*time.Millisecond), sim.ClientOptions{Start: 500 * time.Microsecond})
	return w
}

func logText(w *sim.World) string {
	var b strings.Builder
	for _, e := range w.Log() {
		b.WriteString(e.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Two buyers read stock 1 before either writes: both deduct, the item is sold twice.
func TestTwoClientsInterleave(t *testing.T) {
	w := newStockWorld(t, 1)
	w.Run()
	out := logText(w)
	t.Log("\n" + out)
	if got := strings.Count(out, "mark A deduct") + strings.Count(out, "mark B deduct"); got != 2 {
		t.Fatalf("deductions = %d, want 2 (both read stock 1)", got)
	}
}

// A run stopped by its step cap says so; one that ends by itself does not.
func TestCappedSaysTheStepCapStoppedTheRun(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1, MaxSteps: 3})
	t.Cleanup(w.Close)
	w.AddNodeOn("redis", embedded.New(1))
	if err := w.Init("redis", map[string]string{"stock": "1"}, []string{"stock"}); err != nil {
		t.Fatal(err)
	}
	w.AddClient("A", deduct(10*time.Millisecond), sim.ClientOptions{})
	w.Run()
	if !w.Capped() || w.Steps() != 3 {
		t.Errorf("MaxSteps 3: expected the run capped at step 3, got capped=%v at step %d", w.Capped(), w.Steps())
	}
	whole := newStockWorld(t, 1)
	whole.Run()
	if whole.Capped() {
		t.Errorf("a run that ends by itself: expected not capped, got capped at step %d", whole.Steps())
	}
}
