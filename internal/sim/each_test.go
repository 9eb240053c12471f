package sim_test

import (
	"context"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/sim"
)

// A client that asks three servers at once (Each) waits one round trip,
// not three: its three SETs leave together, in the order asked, are in
// flight side by side, and it goes on when the last reply is in. The
// helpers speak for the asking thread.
func TestEachAsksEveryServerAtOnce(t *testing.T) {
	w := sim.New(sim.Config{Seed: 7, Latency: time.Millisecond})
	t.Cleanup(w.Close)
	nodes := []string{"r1", "r2", "r3"}
	for _, n := range nodes {
		w.AddNodeOn(n, embedded.New(7))
	}
	var took time.Duration
	var said []string
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		start := p.Now()
		said = make([]string, len(nodes))
		err := p.Each(ctx, len(nodes), func(ctx context.Context, i int) {
			said[i], _ = p.Redis(nodes[i]).Set(ctx, "lock", "A", 0).Result()
		})
		took = p.Now().Sub(start)
		p.Mark("asked", &fact.Fact{Key: fact.Failed, Text: fmt.Sprint(said)})
		return err
	}, sim.ClientOptions{})
	w.Run()

	if took != 2*time.Millisecond {
		t.Errorf("three requests at once with a 1ms one-way latency: want the caller back after 2ms, got %s", took)
	}
	if strings.Join(said, ",") != "OK,OK,OK" {
		t.Errorf("want every helper's reply in its slot, got %q", said)
	}
	sends, starts, dones := 0, 0, 0
	var to []string
	for _, e := range w.Log() {
		switch e.Kind {
		case sim.KindSend:
			sends++
			to = append(to, e.Node)
			if e.T != 0 || e.Thread != "main" {
				t.Errorf("want every SET sent at 0 by thread main, got %s", e)
			}
		case sim.KindStart:
			starts++
		case sim.KindDone:
			dones++
		}
	}
	if sends != 3 || starts != 1 || dones != 1 {
		t.Errorf("want 3 sends and the main thread's one start and one done, got %d, %d, %d\n%s", sends, starts, dones, logText(w))
	}
	if strings.Join(to, ",") != "r1,r2,r3" {
		t.Errorf("want the SETs sent in the order asked, r1,r2,r3, got %s", strings.Join(to, ","))
	}
	if w.Threads() != 0 {
		t.Errorf("want every thread ended, %d are not", w.Threads())
	}
}

// A crash while the helpers' requests are in flight ends the helpers and
// the thread that waits for them: nothing of the old incarnation runs on.
func TestEachEndsWithACrash(t *testing.T) {
	w := sim.New(sim.Config{Seed: 7, Latency: time.Millisecond})
	t.Cleanup(w.Close)
	w.AddNodeOn("r1", embedded.New(7))
	w.AddNodeOn("r2", embedded.New(7))
	back := false
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		err := p.Each(ctx, 2, func(ctx context.Context, i int) {
			p.Redis([]string{"r1", "r2"}[i]).Set(ctx, "k", "v", 0)
		})
		back = true
		return err
	}, sim.ClientOptions{})
	w.At(time.Millisecond+time.Microsecond, sim.Fault{Kind: sim.FaultCrash, Client: "A"})
	w.Run()
	if back {
		t.Errorf("the crashed thread came back from Each\n%s", logText(w))
	}
	if w.Threads() != 0 {
		t.Errorf("want every thread of the crashed process ended, %d are not", w.Threads())
	}
}

// A helper that panics ends the thread it speaks for, as a panic in the
// thread itself would: once the other helpers are back, the caller's run
// ends with one done event that carries the panic, and no thread is left
// waiting for ever.
func TestEachPanicEndsTheCaller(t *testing.T) {
	w := sim.New(sim.Config{Seed: 7, Latency: time.Millisecond})
	t.Cleanup(w.Close)
	w.AddNodeOn("r1", embedded.New(7))
	back := false
	w.AddClient("A", func(ctx context.Context, p *sim.Proc) error {
		err := p.Each(ctx, 2, func(ctx context.Context, i int) {
			if i == 1 {
				panic("boom")
			}
			p.Redis("r1").Set(ctx, "k", "v", 0)
		})
		back = true
		return err
	}, sim.ClientOptions{})
	w.Run()
	if back {
		t.Errorf("the caller came back from Each past a helper's panic\n%s", logText(w))
	}
	var dones []string
	for _, e := range w.Log() {
		if e.Kind == sim.KindDone {
			dones = append(dones, e.String())
			if e.T != 2*time.Millisecond || e.Fact.Render().En != "panic: boom" {
				t.Errorf("want the caller done with the panic once the other helper's reply is in (2ms), got %s", e)
			}
		}
	}
	if len(dones) != 1 {
		t.Errorf("want one done event, got %d\n%s", len(dones), logText(w))
	}
	if w.Threads() != 0 {
		t.Errorf("want every thread ended, %d are not\n%s", w.Threads(), logText(w))
	}
}
