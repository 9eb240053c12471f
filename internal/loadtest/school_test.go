package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoadSchool is the school of issue 36: LOCKSTEP_SCHOOL_CLASSES
// classes (default 10) of LOCKSTEP_SCHOOL_STUDENTS (default 40) behind
// LOCKSTEP_SCHOOL_ADDRESSES shared addresses (default 4: 127.0.0.2 …,
// a NAT each), teachers stepping once a second and seeking now and then,
// and on every address one hostile client guessing codes (20 a second)
// and opening classes (5 a second, on up to 12 sockets it keeps). The students join
// once the guessers have slowed their addresses down. It checks that
// every right join gets in and that every student ends at her teacher's
// step, and reports a bystander's step round trip (p50, p99) from an
// address of its own, the hostile clients' outcomes and the server's RSS.
// Set LOCKSTEP_LOAD_SCHOOL=1 to run it; scripts/load-school.sh does.
//
// The teachers open their classes before the hostile clients start: on
// one address, a class opened by a hostile client and one by a teacher
// look alike, and the address's cap (max_classes_per_address, 10) is
// shared by both; what the cap protects is every other address.
func TestLoadSchool(t *testing.T) {
	if os.Getenv("LOCKSTEP_LOAD_SCHOOL") == "" {
		t.Skip("the school load test runs only with LOCKSTEP_LOAD_SCHOOL=1 (scripts/load-school.sh)")
	}
	rooms := env("LOCKSTEP_SCHOOL_CLASSES", 10)
	students := env("LOCKSTEP_SCHOOL_STUDENTS", 40)
	addrs := env("LOCKSTEP_SCHOOL_ADDRESSES", 4)
	seconds := env("LOCKSTEP_SCHOOL_SECONDS", 30)
	srv := startServer(t, 30*time.Second)
	time.Sleep(200 * time.Millisecond)
	baseRSS, _ := srv.proc(t)
	wsURL := "ws" + strings.TrimPrefix(srv.base, "http") + "/ws"
	ipOf := func(i int) string { return fmt.Sprintf("127.0.0.%d", 2+i%addrs) }

	type class struct {
		teacher *stormer
		code    string
		step    atomic.Int64
	}
	classes := make([]*class, rooms)
	for r := range classes {
		s, err := dialFrom(wsURL, ipOf(r))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.ask(map[string]any{"op": "hello"}, "welcome"); err != nil || got != "welcome" {
			t.Fatalf("teacher %d: %s %v", r, got, err)
		}
		if got, err := s.ask(map[string]any{"op": "load", "scenario": "redlock-clock-jump"}, "state"); err != nil || got != "state" {
			t.Fatalf("teacher %d: %s %v", r, got, err)
		}
		id, _ := s.send(map[string]any{"op": "class-start", "origin": "http://127.0.0.1"})
		c := &class{teacher: s}
		for c.code == "" {
			var m classMsg
			_ = s.ws.SetReadDeadline(time.Now().Add(time.Minute))
			if err := s.ws.ReadJSON(&m); err != nil || m.Type == "error" && m.Re == id {
				t.Fatalf("teacher %d: class-start: %v %s", r, err, m.Error)
			}
			if m.Type == "class" && m.Class != nil {
				c.code = m.Class.Code
			}
		}
		classes[r] = c
	}

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	hostile := &outcomes{n: map[string]int{}}
	var wg sync.WaitGroup
	for a := range addrs {
		wg.Add(2)
		go func() { defer wg.Done(); guess(ctx, wsURL, ipOf(a), hostile) }()
		go func() { defer wg.Done(); openClasses(ctx, wsURL, ipOf(a), hostile) }()
	}
	time.Sleep(5 * time.Second) // the guessers past their addresses' bursts

	// The students join, each on its own socket from her class's address.
	type student struct {
		s    *stormer
		step atomic.Int64
	}
	var all [][]*student
	joins := &outcomes{n: map[string]int{}}
	for r, c := range classes {
		var mine []*student
		for i := range students {
			s, err := dialFrom(wsURL, ipOf(r))
			if err != nil {
				t.Fatalf("student %d/%d: %v", r, i, err)
			}
			if got, err := s.ask(map[string]any{"op": "hello"}, "welcome"); err != nil || got != "welcome" {
				t.Fatalf("student %d/%d: hello: %s %v", r, i, got, err)
			}
			got, err := s.ask(map[string]any{"op": "class-join", "code": c.code, "name": fmt.Sprintf("s%d", i), "browser": fmt.Sprintf("b%d-%d", r, i)}, "class")
			if err != nil {
				t.Fatalf("student %d/%d: %v", r, i, err)
			}
			joins.add(got)
			st := &student{s: s}
			st.step.Store(-1)
			go func() { // her screen: the step of every state message
				for {
					_ = s.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
					_, raw, err := s.ws.ReadMessage()
					if err != nil {
						return
					}
					if n := stateStep(raw); n >= 0 {
						st.step.Store(int64(n))
					}
				}
			}()
			mine = append(mine, st)
		}
		all = append(all, mine)
	}

	// A bystander steps through a lesson from an address of its own.
	tl := &tally{errs: map[string]int{}}
	by, err := dialFrom(wsURL, "127.0.0.99")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := by.ask(map[string]any{"op": "hello"}, "welcome"); err != nil || got != "welcome" {
		t.Fatalf("the bystander's hello: %s %v", got, err)
	}
	wg.Add(1)
	go func() { defer wg.Done(); stepper(ctx, by, 0, &outcomes{n: map[string]int{}}, tl) }()

	// The teachers step once a second and seek back and on every tenth.
	for sec := 1; sec <= seconds; sec++ {
		time.Sleep(time.Second)
		for _, c := range classes {
			req := map[string]any{"op": "step"}
			if sec%10 == 0 {
				req = map[string]any{"op": "seek", "step": rand.IntN(30)}
			}
			if _, err := c.teacher.send(req); err != nil {
				t.Fatalf("teacher: %v", err)
			}
		}
	}
	// The teachers' last position, from a last step's answer.
	for r, c := range classes {
		var m reply
		id, _ := c.teacher.send(map[string]any{"op": "step"})
		for {
			_ = c.teacher.ws.SetReadDeadline(time.Now().Add(time.Minute))
			_, raw, err := c.teacher.ws.ReadMessage()
			if err != nil {
				t.Fatalf("teacher %d: %v", r, err)
			}
			var ok bool
			if m, ok = answer(raw, id); ok {
				break
			}
		}
		if m.Snap == nil {
			t.Fatalf("teacher %d: the last step answered %s %s", r, m.Type, m.Error)
		}
		c.step.Store(int64(m.Snap.Step))
	}
	behind := 0
	deadline := time.Now().Add(20 * time.Second)
	for r, mine := range all {
		for _, st := range mine {
			for st.step.Load() != classes[r].step.Load() && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if st.step.Load() != classes[r].step.Load() {
				behind++
			}
		}
	}
	rss, fds := srv.proc(t)
	stop()
	wg.Wait()

	t.Logf("%d classes × %d students on %d addresses, %ds: joins %v", rooms, students, addrs, seconds, joins.n)
	t.Logf("hostile clients (one per address): %v", hostile.n)
	t.Logf("bystander's step: p50 %s, p99 %s over %d steps; errors %v", pct(tl.steps, 0.5).Round(100*time.Microsecond),
		pct(tl.steps, 0.99).Round(100*time.Microsecond), len(tl.steps), tl.errs)
	t.Logf("server RSS %d MiB (idle %d MiB), %d open files; %d students not at their teacher's step", rss>>10, baseRSS>>10, fds, behind)
	if joins.n["class"] != rooms*students {
		t.Errorf("%d of %d right joins got in: %v", joins.n["class"], rooms*students, joins.n)
	}
	if behind > 0 {
		t.Errorf("%d students did not reach their teacher's step", behind)
	}
	if p99 := pct(tl.steps, 0.99); p99 > 50*time.Millisecond {
		t.Errorf("the bystander's step p99 %v, over 50 ms", p99)
	}
}

// guess sends wrong join codes from ip, 20 a second, and counts answers.
func guess(ctx context.Context, wsURL, ip string, out *outcomes) {
	s, err := dialFrom(wsURL, ip)
	if err != nil {
		out.add("guess: " + err.Error())
		return
	}
	defer s.ws.Close()
	if _, err := s.ask(map[string]any{"op": "hello"}, "welcome"); err != nil {
		return
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		code := fmt.Sprintf("%06d", rand.IntN(1000000))
		code = strings.NewReplacer("0", "A", "1", "B").Replace(code)
		got, err := s.ask(map[string]any{"op": "class-join", "code": code, "name": "x"}, "class")
		if err != nil {
			return
		}
		out.add("guess: " + got)
	}
}

// openClasses opens a class from ip 5 times a second, each on a socket it
// keeps (at most 12: past the address's cap of classes, and the school's
// sessions and the hostile ones together under the server's 500), and
// counts answers.
func openClasses(ctx context.Context, wsURL, ip string, out *outcomes) {
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for n := 0; n < 12; n++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s, err := dialFrom(wsURL, ip)
		if err != nil {
			out.add("open: " + err.Error())
			continue
		}
		defer s.ws.Close()
		if _, err := s.ask(map[string]any{"op": "hello"}, "welcome"); err != nil {
			continue
		}
		if _, err := s.ask(map[string]any{"op": "load", "scenario": "no-lock-oversell"}, "state"); err != nil {
			continue
		}
		got, err := s.ask(map[string]any{"op": "class-start", "origin": "http://127.0.0.1"}, "class")
		if err == nil {
			out.add("open: " + got)
		}
	}
	<-ctx.Done()
}
