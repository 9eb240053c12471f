package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// stormYAML is the comparers' scenario: two clients retrying a held lock
// every millisecond, 100 requests each: runs of some thousands of steps a
// side, compared with another lock (a few hundred milliseconds of CPU).
const stormYAML = `scenarios:
  - id: storm
    title: {en: two clients retrying}
    horizon: 10m
    clients:
      - {name: A, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 1ms}, task: none, requests: 100, work: 1ms}
      - {name: B, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 1ms}, task: none, requests: 100, work: 1ms}
    expect: [safe]
`

// stormer is one browser of the storm: a socket from an address of its
// own (a user of its own: the per-address limits do not apply between
// them) and the requests it sent.
type stormer struct {
	ws *websocket.Conn
	id int
}

// dialFrom opens a socket to the server from the loopback address ip.
func dialFrom(wsURL, ip string) (*stormer, error) {
	nd := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	d := websocket.Dialer{NetDial: nd.Dial, HandshakeTimeout: 5 * time.Second}
	ws, _, err := d.Dial(wsURL, nil)
	if err != nil {
		return nil, err
	}
	return &stormer{ws: ws}, nil
}

// send sends a request with the next id and returns the id.
func (s *stormer) send(req map[string]any) (int, error) {
	s.id++
	req["id"] = s.id
	_ = s.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return s.id, s.ws.WriteJSON(req)
}

// until reads messages until one of type typ, or an error answering re:
// it returns "typ", or "error CODE".
func (s *stormer) until(typ string, re int) (string, error) {
	head := []byte(`{"type":"` + typ + `"`)
	errHead := []byte(fmt.Sprintf(`{"type":"error","re":%d,`, re))
	for {
		_ = s.ws.SetReadDeadline(time.Now().Add(time.Minute))
		_, raw, err := s.ws.ReadMessage()
		if err != nil {
			return "", err
		}
		switch {
		case bytes.HasPrefix(raw, head) && bytes.Contains(raw[:min(len(raw), 64)], []byte(`"more":true`)):
			// a part of a long state (docs/protocol.md): its last part answers
		case bytes.HasPrefix(raw, head):
			return typ, nil
		case bytes.HasPrefix(raw, errHead):
			var m reply
			_ = json.Unmarshal(raw, &m)
			return "error " + m.Code, nil
		}
	}
}

// ask sends req and waits for its answer of type typ (or its error).
func (s *stormer) ask(req map[string]any, typ string) (string, error) {
	id, err := s.send(req)
	if err != nil {
		return "", err
	}
	return s.until(typ, id)
}

// outcomes counts what the storm's requests were answered.
type outcomes struct {
	mu sync.Mutex
	n  map[string]int
}

func (o *outcomes) add(what string) {
	o.mu.Lock()
	o.n[what]++
	o.mu.Unlock()
}

// TestStorm is the storm of docs/performance.md: 20 sessions searching
// ("Find a bad schedule", again as soon as one ends), 20 comparing long
// runs in a loop and 20 stepping through the lessons (20 steps a second
// each) for LOCKSTEP_STORM_SECONDS (default 60), each from a loopback
// address of its own, against the real server in its own process. It
// reports the stepping sessions' round trips and the server's own time
// over their steps (/healthz: p50, p99, max), the server's RSS, and after
// every socket closes, its return to the idle baseline. Set
// LOCKSTEP_STORM=1 to run it; scripts/storm.sh does. LOCKSTEP_STORM_SEARCHERS,
// _COMPARERS and _STEPPERS change the numbers (0: none), to see which
// kind of work a step waits for.
//
// LOCKSTEP_STORM_SEEKERS adds sessions (none unless set) that load seekYAML
// and seek it to step 50,000 and back to 0 in a loop (issue 36: a step
// beside long seeks). LOCKSTEP_STORM_SHUTDOWN=1 ends the storm with a
// SIGTERM to the server, its sockets still open and its work under way,
// and reports how long the server took to exit and what it logged.
func TestStorm(t *testing.T) {
	if os.Getenv("LOCKSTEP_STORM") == "" {
		t.Skip("the storm runs only with LOCKSTEP_STORM=1 (scripts/storm.sh)")
	}
	seconds := env("LOCKSTEP_STORM_SECONDS", 60)
	srv := startServer(t, 3*time.Second)
	if err := lowerPriority(10); err != nil {
		t.Logf("browsers at the server's priority: %v", err)
	}
	time.Sleep(200 * time.Millisecond)
	base := srv.health(t)
	baseRSS, _ := srv.proc(t)
	t.Logf("idle server: %d goroutines, RSS %d MiB; load average %s", base["goroutines"], baseRSS>>10, loadavg())
	peak := watchRSS(srv)
	wsURL := "ws" + strings.TrimPrefix(srv.base, "http") + "/ws"
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
	defer cancel()
	out := &outcomes{n: map[string]int{}}
	tl := &tally{errs: map[string]int{}}
	var wg sync.WaitGroup
	var socks []*stormer
	type role func(context.Context, *stormer, int, *outcomes, *tally)
	var roles []role
	for _, r := range []struct {
		env  string
		play role
		n    int
	}{{"SEARCHERS", searcher, 20}, {"COMPARERS", comparer, 20}, {"STEPPERS", stepper, 20}, {"SEEKERS", seeker, 0}} {
		n := r.n
		if v := os.Getenv("LOCKSTEP_STORM_" + r.env); v != "" {
			n, _ = strconv.Atoi(v)
		}
		for range n {
			roles = append(roles, r.play)
		}
	}
	for i, play := range roles {
		s, err := dialFrom(wsURL, fmt.Sprintf("127.0.%d.%d", 3+i/200, 1+i%200))
		if err != nil {
			t.Fatalf("browser %d: %v", i, err)
		}
		socks = append(socks, s)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := s.ask(map[string]any{"op": "hello"}, "welcome"); err != nil {
				out.add("hello: " + err.Error())
				return
			}
			play(ctx, s, i, out, tl)
		}()
	}
	<-ctx.Done()
	during := srv.health(t)
	most := peak()
	avg := loadavg()
	if os.Getenv("LOCKSTEP_STORM_SHUTDOWN") != "" {
		srv.shutdown(t)
	}
	for _, s := range socks {
		_ = s.ws.Close()
	}
	wg.Wait()
	us := func(k string) time.Duration { return time.Duration(during[k]) * time.Microsecond }
	t.Logf("%d browsers (searching, comparing, stepping: 20 each unless LOCKSTEP_STORM_SEARCHERS, _COMPARERS, _STEPPERS say) for %d s; load average at the end %s", len(roles), seconds, avg)
	t.Logf("answers: %v", out.n)
	t.Logf("steps: %d; round trip p50 %s, p99 %s, max %s", len(tl.steps),
		pct(tl.steps, 0.5).Round(10*time.Microsecond), pct(tl.steps, 0.99).Round(10*time.Microsecond), pct(tl.steps, 1).Round(time.Millisecond))
	t.Logf("the server's own time over a step (/healthz): p50 %s, p99 %s, max %s", us("step_p50_us"), us("step_p99_us"), us("step_max_us"))
	t.Logf("server: RSS at most %d MiB (idle %d MiB), %d goroutines, memory estimate %d MiB at the end",
		most>>10, baseRSS>>10, during["goroutines"], during["memory"]>>20)
	if os.Getenv("LOCKSTEP_STORM_SHUTDOWN") != "" {
		return // the server has exited
	}
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		h := srv.health(t)
		if h["sessions"] == 0 && h["sockets"] == 0 && h["memory"] == 0 && h["goroutines"] <= base["goroutines"]+2 {
			rss, _ := srv.proc(t)
			t.Logf("back to idle: 0 sessions, %d goroutines (baseline %d), memory estimate 0, RSS %d MiB (Go returns freed memory to the OS lazily)",
				h["goroutines"], base["goroutines"], rss>>10)
			return
		}
	}
	t.Errorf("not back to the idle baseline 60 s after every socket closed: %v", srv.health(t))
}

// loadavg is the machine's load average (1, 5 and 15 minutes).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// searcher loads a lesson and searches it, again as soon as a search ends
// (after 200 ms when the server runs as many as it allows).
func searcher(ctx context.Context, s *stormer, _ int, out *outcomes, _ *tally) {
	if _, err := s.ask(map[string]any{"op": "load", "scenario": "blind-del-slow-release"}, "state"); err != nil {
		return
	}
	for ctx.Err() == nil {
		id, err := s.send(map[string]any{"op": "explore", "budget": "pause:5s"})
		if err != nil {
			return
		}
		what, err := s.until("explore-started", id)
		if err != nil {
			return
		}
		if what != "explore-started" {
			out.add("explore: " + what)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if what, err = s.until("explore-done", -1); err != nil {
			return
		}
		out.add("explore: " + what)
	}
}

// comparer loads stormYAML and compares it with another lock in a loop.
func comparer(ctx context.Context, s *stormer, _ int, out *outcomes, _ *tally) {
	if _, err := s.ask(map[string]any{"op": "load", "yaml": stormYAML}, "state"); err != nil {
		return
	}
	for ctx.Err() == nil {
		what, err := s.ask(map[string]any{"op": "compare", "with": "set-nx-ex-blind-del"}, "compare")
		if err != nil {
			return
		}
		out.add("compare: " + what)
	}
}

// stepper steps through a lesson, 20 steps a second, and resets it when
// it ends.
func stepper(ctx context.Context, s *stormer, n int, out *outcomes, tl *tally) {
	lessons := []string{"redlock-pause-in-flight", "blind-del-slow-release", "fencing-token-rejects-stale", "watchdog-stuck-worker"}
	if _, err := s.ask(map[string]any{"op": "load", "scenario": lessons[n%len(lessons)]}, "state"); err != nil {
		return
	}
	b := &browser{ws: s.ws, id: s.id}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		m, d, err := b.ask(map[string]any{"op": "step"})
		if err != nil {
			return
		}
		tl.add("step", d, m)
		if m.Type == "error" {
			out.add("step: error " + m.Code)
		}
		if m.Snap != nil && m.Snap.Ended {
			if _, _, err := b.ask(map[string]any{"op": "reset"}); err != nil {
				return
			}
		}
	}
}

// seekYAML is the seekers' scenario (issue 36): four clients that never
// release, retrying every millisecond, 1,000 requests each, for ten
// minutes: a run of hundreds of thousands of steps. It is internal/server's
// long-work scenario, read from that package's testdata.
var seekYAML = func() string {
	b, err := os.ReadFile("../server/testdata/retry.yaml")
	if err != nil {
		panic(err) // a test file of this module: missing is a broken checkout
	}
	return string(b)
}()

// seeker loads seekYAML and seeks it to step 50,000 and back to 0 in a
// loop.
func seeker(ctx context.Context, s *stormer, _ int, out *outcomes, _ *tally) {
	if what, err := s.ask(map[string]any{"op": "load", "yaml": seekYAML}, "state"); err != nil || what != "state" {
		out.add("seek load: " + what)
		return
	}
	for ctx.Err() == nil {
		for _, to := range []int{50000, 0} {
			what, err := s.ask(map[string]any{"op": "seek", "step": to}, "state")
			if err != nil {
				return
			}
			out.add(fmt.Sprintf("seek %d: %s", to, what))
		}
	}
}

// shutdown sends the server SIGTERM and reports how long it took to exit
// (its log, on the test's stderr, says what it gave up on, if anything).
func (s *server) shutdown(t *testing.T) {
	t.Helper()
	sent := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err := s.cmd.Wait()
	t.Logf("SIGTERM under load: the server exited after %s (%v; docs/protocol.md: at most 3 s)", time.Since(sent).Round(time.Millisecond), err)
}
