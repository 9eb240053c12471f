package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/sim"
)

// A library's retry sleep bounded by its context's deadline wakes at the
// deadline, not after the whole sleep, and says why; the deadline is on
// the process's clock, skew included.
func TestSleepWakesAtTheVirtualDeadline(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1})
	t.Cleanup(w.Close)
	var woke time.Duration
	var err, errBefore error
	var deadline time.Time
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		ctx, cancel := p.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
		deadline, _ = ctx.Deadline()
		errBefore = ctx.Err()
		start := p.Now()
		err = p.Sleep(ctx, time.Second)
		woke = p.Now().Sub(start)
		return nil
	}, sim.ClientOptions{Skew: time.Hour})
	w.Run()
	if woke != 300*time.Millisecond || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("want the 1s sleep cut at the 300ms deadline with DeadlineExceeded, got %s and %v", woke, err)
	}
	if errBefore != nil {
		t.Errorf("want the context live before its deadline, got %v", errBefore)
	}
	if want := sim.DefaultEpoch.Add(time.Hour + 300*time.Millisecond); !deadline.Equal(want) {
		t.Errorf("want the deadline on the skewed process clock, %s, got %s", want, deadline)
	}
}

// A shorter sleep under a deadline is an ordinary sleep; a child's
// deadline never outlives its parent's; cancel ends the context at once.
func TestDeadlineNestsAndCancels(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1})
	t.Cleanup(w.Close)
	var errs []error
	var child time.Time
	var parentDeadline time.Time
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		parent, cancelParent := p.WithTimeout(ctx, 100*time.Millisecond)
		parentDeadline, _ = parent.Deadline()
		c, cancel := p.WithTimeout(parent, time.Second)
		child, _ = c.Deadline()
		errs = append(errs, p.Sleep(c, 50*time.Millisecond))
		cancel()
		errs = append(errs, c.Err(), parent.Err())
		cancelParent()
		errs = append(errs, parent.Err())
		select {
		case <-parent.Done():
		default:
			t.Error("a cancelled context's Done is not closed")
		}
		return nil
	}, sim.ClientOptions{})
	w.Run()
	want := []error{nil, context.Canceled, nil, context.Canceled}
	for i := range want {
		if i >= len(errs) || !errors.Is(errs[i], want[i]) {
			t.Fatalf("want %v, got %v", want, errs)
		}
	}
	if !child.Equal(parentDeadline) {
		t.Errorf("a 1s child of a 100ms parent: want the parent's deadline %s, got %s", parentDeadline, child)
	}
}

// A command whose reply is lost times out at the caller's deadline when
// that comes before the world's own timeout, and the timeout says so; a
// command sent with a context already done never leaves the client.
func TestCommandTimesOutAtTheDeadline(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1, Timeout: time.Second})
	t.Cleanup(w.Close)
	w.AddNodeOn("r1", embedded.New(1))
	var err1, err2 error
	var took time.Duration
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		ctx, cancel := p.WithTimeout(ctx, 400*time.Millisecond)
		defer cancel()
		start := p.Now()
		err1 = p.Redis("r1").Set(ctx, "k", "v", 0).Err()
		took = p.Now().Sub(start)
		err2 = p.Redis("r1").Get(ctx, "k").Err()
		return nil
	}, sim.ClientOptions{})
	if err := w.Apply(sim.Fault{Kind: sim.FaultDropReply, Client: "A", Node: "r1"}); err != nil {
		t.Fatal(err)
	}
	w.Run()
	var timeouts, sends int
	for _, e := range w.Log() {
		switch e.Kind {
		case sim.KindTimeout:
			timeouts++
			if e.T != 400*time.Millisecond || e.Fact == nil || e.Fact.Key != fact.DeadlinePassed {
				t.Errorf("want the timeout at the 400ms deadline, saying so, got %s", e)
			}
		case sim.KindSend:
			sends++
		}
	}
	var ne interface{ Timeout() bool }
	if timeouts != 1 || took != 400*time.Millisecond || !errors.As(err1, &ne) || !ne.Timeout() {
		t.Errorf("want one timeout after 400ms, a timeout error; got %d after %s, %v\n%s", timeouts, took, err1, logText(w))
	}
	if sends != 1 || !errors.Is(err2, context.DeadlineExceeded) {
		t.Errorf("want the GET after the deadline never sent, with DeadlineExceeded; got %d sends, %v\n%s", sends, err2, logText(w))
	}
}

// Async: the helpers' commands leave together; next gives them in the
// order their replies came back (the slower node last), and a caller that
// stops reading early leaves the others to finish on their own.
func TestAsyncGivesHelpersInTheOrderTheyReturn(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1, Latency: time.Millisecond})
	t.Cleanup(w.Close)
	nodes := []string{"r1", "r2", "r3"}
	for _, n := range nodes {
		w.AddNodeOn(n, embedded.New(1))
	}
	var order []int
	var firstAt, lastSet time.Duration
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		start := p.Now()
		next := p.Async(3, func(i int) {
			if i == 0 {
				_ = p.Sleep(ctx, 10*time.Millisecond) // a slow node
			}
			p.Redis(nodes[i]).Set(ctx, "k", "A", 0)
		})
		order = append(order, next(), next())
		firstAt = p.Now().Sub(start)
		p.Mark("early", nil) // stopped reading with one helper still out
		return nil
	}, sim.ClientOptions{})
	w.Run()
	if len(order) != 2 || order[0] == 0 || order[1] == 0 || firstAt != 2*time.Millisecond {
		t.Errorf("want the two fast helpers first, back after one round trip (2ms); got %v at %s\n%s", order, firstAt, logText(w))
	}
	for _, e := range w.Log() {
		if e.Kind == sim.KindExec && e.Node == "r1" {
			lastSet = e.T
		}
	}
	if lastSet != 11*time.Millisecond {
		t.Errorf("want the slow helper's SET to run on after the caller stopped reading (at 11ms), got %s\n%s", lastSet, logText(w))
	}
	if w.Threads() != 0 {
		t.Errorf("want every thread ended, %d are not", w.Threads())
	}
}

// A helper's panic reaches the caller when next gives that helper.
func TestAsyncPanicReachesNext(t *testing.T) {
	w := sim.New(sim.Config{Seed: 1})
	t.Cleanup(w.Close)
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		next := p.Async(1, func(int) { panic("boom") })
		next()
		return nil
	}, sim.ClientOptions{})
	w.Run()
	if log := logText(w); !strings.Contains(log, "done A -- panic: boom") {
		t.Errorf("want the caller done with the helper's panic\n%s", log)
	}
}
