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
			if r.Re != 0 && !r.More {
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

// TestMemorySeeking is the review's load of issue 36 (finding 4): 20
// sessions load the long lesson (seekYAML) and seek it to step 50,000, each stopping
// at its session's budget or the server's. While they run, /healthz is
// read every 200 ms: the estimate (memory), what the budget counts
// (memory_used: the estimate, or the live memory measured when more),
// the live heap and stacks (memory_live), what the runtime holds from the
// system (memory_held) and the RSS. Every run stops at a budget (the
// server's, counted on the live memory measured as well as on the
// estimate), and what the runtime holds stays within a tenth of its soft
// limit (the budget and a quarter, server.SoftMemoryLimit); the RSS is
// that and the process's own pages, logged. Before, with a 768 MiB soft
// limit, the RSS was 786 to 899 MB beside 531.6 MB estimated. Set
// LOCKSTEP_MEMORY=1 to run it (scripts/memory.sh).
func TestMemorySeeking(t *testing.T) {
	if os.Getenv("LOCKSTEP_MEMORY") == "" {
		t.Skip("the memory test runs only with LOCKSTEP_MEMORY=1 (scripts/memory.sh)")
	}
	const sessions, budget = 20, 512 << 20
	srv := startServer(t, 3*time.Second)
	baseRSS, _ := srv.proc(t)
	peakRSS := watchRSS(srv)
	var mu sync.Mutex
	peak := map[string]int64{}
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			h := srv.health(t)
			mu.Lock()
			for _, k := range []string{"memory", "memory_used", "memory_live", "memory_held", "rss"} {
				peak[k] = max(peak[k], h[k])
			}
			mu.Unlock()
		}
	}()
	wsURL := "ws" + strings.TrimPrefix(srv.base, "http") + "/ws"
	outcomes := map[string]int{}
	var wg sync.WaitGroup
	yml := seekYAML
	for range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, what := loadAndSeek(wsURL, yml)
			mu.Lock()
			defer mu.Unlock()
			outcomes[what]++
			if ws != nil {
				defer ws.Close()
			}
		}()
	}
	wg.Wait()
	close(stop)
	mu.Lock()
	defer mu.Unlock()
	most := peakRSS() << 10
	t.Logf("%d sessions seeking the long lesson: %v", sessions, outcomes)
	t.Logf("peaks: estimate %d MiB, counted %d MiB, live %d MiB, held %d MiB, RSS %d MiB (idle %d MiB; RSS/estimate %.2f); budget %d MiB",
		peak["memory"]>>20, peak["memory_used"]>>20, peak["memory_live"]>>20, peak["memory_held"]>>20, most>>20, baseRSS>>10, float64(most)/float64(peak["memory"]), budget>>20)
	for what := range outcomes {
		if !strings.Contains(what, "memory") && !strings.Contains(what, "step-cap") && !strings.Contains(what, "seek state") {
			t.Errorf("a session ended with %q: want it stopped at a budget, or at its step", what)
		}
	}
	if soft := int64(budget + budget/4); peak["memory_held"] > soft+soft/10 {
		t.Errorf("the runtime held %d MiB, over its soft limit of %d MiB (the budget and a quarter) and a tenth", peak["memory_held"]>>20, soft>>20)
	}
}
