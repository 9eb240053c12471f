package loadtest

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// capYAML is the largest scenario of its kind a session's memory budget
// (32 MiB) lets a server load: 16 clients, each with a pool of 64 threads
// and 100 requests waiting for one (1,616 threads at once, about 31.9 MiB
// as estimated at 20 KiB a thread), 1 µs of work and retry, ten minutes of
// horizon.
func capYAML() string {
	var b strings.Builder
	b.WriteString("scenarios:\n  - id: cap\n    title: {en: the largest run a session may hold}\n    horizon: 10m\n    clients:\n")
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&b, "      - {name: C%d, algorithm: set-nx-ex-blind-del, params: {ttl: 3s, retry: 1us}, threads: 64, requests: 100, work: 1us}\n", i)
	}
	b.WriteString("    expect: [safe]\n")
	return b.String()
}

// memoryFactor is how far the server's RSS may go past its memory budget
// (512 MiB by default): the estimate is at or above the heap
// (server.TestCostCalibration), the collector runs with GOGC 400 under a
// soft limit of 768 MiB (serve), and the process has its own baseline.
const memoryFactor = 2

// TestMemoryBudget loads the cap scenario in 50 sessions at once and runs
// each as far as it will go: a load the server's budget has no room for is
// refused (server-memory), every run that loads stops at its session's
// budget or the server's, and the server's RSS stays within memoryFactor of
// the server's budget. Then every socket closes and the sessions are
// evicted (their estimate back to 0). Set LOCKSTEP_MEMORY=1 to run it
// (scripts/memory.sh; about 20 s of both cores).
func TestMemoryBudget(t *testing.T) {
	if os.Getenv("LOCKSTEP_MEMORY") == "" {
		t.Skip("the memory test runs only with LOCKSTEP_MEMORY=1 (scripts/memory.sh)")
	}
	const sessions, budget = 50, 512 << 20
	srv := startServer(t, 3*time.Second)
	baseRSS, _ := srv.proc(t)
	peak := watchRSS(srv)
	wsURL := "ws" + strings.TrimPrefix(srv.base, "http") + "/ws"
	var mu sync.Mutex
	outcomes := map[string]int{}
	var socks []*websocket.Conn
	var wg sync.WaitGroup
	yml := capYAML()
	for range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, what := loadAndSeek(wsURL, yml)
			mu.Lock()
			defer mu.Unlock()
			if ws != nil {
				socks = append(socks, ws)
			}
			outcomes[what]++
		}()
	}
	wg.Wait()
	h := srv.health(t)
	most := peak()
	t.Logf("%d sessions of the cap scenario: %v", sessions, outcomes)
	t.Logf("server: RSS at most %d MiB (idle %d MiB), %d sessions estimated at %d MiB; budget %d MiB, allowed RSS %d MiB",
		most>>10, baseRSS>>10, h["sessions"], h["memory"]>>20, budget>>20, memoryFactor*budget>>20)
	for what := range outcomes {
		if !strings.Contains(what, "memory") {
			t.Errorf("a session ended with %q: want each stopped at a memory budget or refused for one", what)
		}
	}
	if most<<10 > memoryFactor*budget {
		t.Errorf("RSS %d MiB, over %d times the server's budget of %d MiB", most>>10, memoryFactor, budget>>20)
	}
	for _, ws := range socks {
		ws.Close()
	}
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		if h := srv.health(t); h["sessions"] == 0 && h["memory"] == 0 {
			rss, _ := srv.proc(t)
			t.Logf("every socket closed: 0 sessions, memory estimate 0, RSS %d MiB (Go returns freed memory to the OS lazily)", rss>>10)
			return
		}
	}
	t.Errorf("the sessions were not evicted within 30s of their sockets closing: %v", srv.health(t))
}

// watchRSS samples the server's RSS every 100 ms until the process ends;
// the function it returns gives the highest seen so far (KiB).
func watchRSS(srv *server) func() int64 {
	var mu sync.Mutex
	var peak int64
	go func() {
		for {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", srv.cmd.Process.Pid))
			if err != nil {
				return
			}
			for _, l := range strings.Split(string(b), "\n") {
				var kib int64
				if _, err := fmt.Sscanf(l, "VmRSS: %d kB", &kib); err == nil {
					mu.Lock()
					peak = max(peak, kib)
					mu.Unlock()
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	return func() int64 { mu.Lock(); defer mu.Unlock(); return peak }
}

// loadAndSeek opens a session, loads yml and seeks it to step 50,000; it
// says how that ended: the answer's type and error code.
func loadAndSeek(wsURL, yml string) (*websocket.Conn, string) {
	ws, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
	if err != nil {
		return nil, "dial: " + err.Error()
	}
	read := func() reply {
		_ = ws.SetReadDeadline(time.Now().Add(5 * time.Minute))
		for {
			var r reply
			if err := ws.ReadJSON(&r); err != nil {
				return reply{Type: "gone", Error: err.Error()}
			}
			if r.Re != 0 {
				return r
			}
		}
	}
	_ = ws.WriteJSON(map[string]any{"op": "hello", "id": 1})
	_ = ws.WriteJSON(map[string]any{"op": "load", "yaml": yml, "id": 2})
	r := read()
	for r.Re == 1 {
		r = read()
	}
	what := "load "
	if r.Type == "state" {
		_ = ws.WriteJSON(map[string]any{"op": "seek", "step": 50000, "id": 3})
		r, what = read(), "seek "
	}
	return ws, what + r.Type + " " + r.Code
}
