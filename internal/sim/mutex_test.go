package sim

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Two threads of one process take an in-process mutex in turn: the second
// waits, and gets it the instant the first lets go.
func TestMutexSerializesThreads(t *testing.T) {
	w := New(Config{Seed: 1})
	t.Cleanup(w.Close)
	w.AddClient("A", func(ctx context.Context, p *Proc) error {
		mu := NewMutex(p, "local mutex")
		for _, name := range []string{"t1", "t2"} {
			p.Go(name, func(ctx context.Context) error {
				if err := mu.Lock(ctx); err != nil {
					return err
				}
				if err := p.Sleep(ctx, 50*time.Millisecond); err != nil {
					return err
				}
				mu.Unlock()
				return nil
			})
		}
		return nil
	}, ClientOptions{})
	w.Run()
	var marks []string
	for _, e := range w.Log() {
		if e.Kind == KindMark {
			marks = append(marks, e.Who()+" "+e.Name+" "+FormatTime(e.T))
		}
	}
	got := strings.Join(marks, "\n")
	want := strings.Join([]string{
		"A/t1 local-lock 0s", "A/t2 local-wait 0s", "A/t1 local-unlock 0.05s",
		"A/t2 local-lock 0.05s", "A/t2 local-unlock 0.1s"}, "\n")
	if got != want {
		t.Fatalf("mutex marks:\nwant\n%s\ngot\n%s", want, got)
	}
}

// A semaphore of 1 lets one thread in at a time.
func TestSemaphoreHandsOutPermitsInOrder(t *testing.T) {
	w := New(Config{Seed: 1})
	t.Cleanup(w.Close)
	var order []string
	w.AddClient("A", func(ctx context.Context, p *Proc) error {
		s := NewSemaphore(p, 1)
		for _, name := range []string{"r1", "r2", "r3"} {
			p.Go(name, func(ctx context.Context) error {
				if err := s.Acquire(ctx); err != nil {
					return err
				}
				order = append(order, name+"@"+FormatTime(w.Now()))
				if err := p.Sleep(ctx, 10*time.Millisecond); err != nil {
					return err
				}
				s.Release()
				return nil
			})
		}
		return nil
	}, ClientOptions{})
	w.Run()
	var times []string
	for _, o := range order {
		times = append(times, o[strings.Index(o, "@")+1:])
	}
	if got := strings.Join(times, " "); got != "0s 0.01s 0.02s" {
		t.Fatalf("want one holder at a time, 10ms apart (0s 0.01s 0.02s), got %s", strings.Join(order, " "))
	}
	if len(order) != 3 {
		t.Fatalf("want 3 turns, got %v", order)
	}
}
