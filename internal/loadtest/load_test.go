package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// env reads an integer setting, or its default.
func env(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// server is the visualizer binary serving on a loopback port.
type server struct {
	cmd  *exec.Cmd
	base string
}

func startServer(t *testing.T, idle time.Duration) *server {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "visualizer")
	build := exec.Command("go", "build", "-o", bin, "github.com/lockstep/lockstep/cmd/visualizer")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	// Every browser of the test dials from 127.0.0.1: one address, which
	// may otherwise hold 128 sessions (docs/protocol.md, limits per client
	// address).
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--idle", idle.String(), "--per-address", "100000")
	// LOCKSTEP_LOAD_GOGC, _GODEBUG, _GOMEMLIMIT and _GOMAXPROCS set GOGC,
	// GODEBUG, GOMEMLIMIT and GOMAXPROCS for the server alone
	// (GODEBUG=gctrace=1 reports its collections), not for the browsers
	// beside it.
	cmd.Env = os.Environ()
	for _, v := range []string{"GOGC", "GODEBUG", "GOMEMLIMIT", "GOMAXPROCS"} {
		if x := os.Getenv("LOCKSTEP_LOAD_" + v); x != "" {
			cmd.Env = append(cmd.Env, v+"="+x)
		}
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the server said nothing: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	f := strings.Fields(line) // Lockstep on http://127.0.0.1:PORT (embedded Redis)
	if len(f) < 3 || !strings.HasPrefix(f[2], "http://127.0.0.1:") {
		t.Fatalf("unexpected first line from the server: %q", line)
	}
	return &server{cmd: cmd, base: f[2]}
}

// health reads the server's /healthz figures.
func (s *server) health(t *testing.T) map[string]int64 {
	t.Helper()
	resp, err := http.Get(s.base + "/healthz")
	if err != nil {
		t.Fatalf("healthz: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	out := map[string]int64{}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			out[f[0]], _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	return out
}

// cpu reads the CPU time the server process has used, user and system.
func (s *server) cpu(t *testing.T) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)            // utime, field 14
	st, _ := strconv.ParseInt(f[12], 10, 64)            // stime, field 15
	return time.Duration(ut+st) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// proc reads the server process's resident memory (KiB) and open files.
func (s *server) proc(t *testing.T) (rssKiB int64, fds int) {
	t.Helper()
	pid := s.cmd.Process.Pid
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			rssKiB, _ = strconv.ParseInt(strings.Fields(l)[1], 10, 64)
		}
	}
	ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	return rssKiB, len(ents)
}

// reply is the part of a server message the load test reads.
type reply struct {
	Type    string `json:"type"`
	Re      int    `json:"re"`
	More    bool   `json:"more"` // a part of a long state: its last part answers
	Error   string `json:"error"`
	Code    string `json:"code"`
	Catalog []struct {
		ID      string   `json:"id"`
		Clients []string `json:"clients"`
	} `json:"catalog"`
	Snap *snapHead `json:"snap"`
}

// snapHead is what the load test reads of a snapshot.
type snapHead struct {
	Step  int  `json:"step"`
	Ended bool `json:"ended"`
}

// browser is one simulated page: one socket, one session.
type browser struct {
	ws  *websocket.Conn
	id  int
	buf bytes.Buffer // the message being read, its memory kept
}

// ask sends a request and waits for the message that answers it.
func (b *browser) ask(req map[string]any) (reply, time.Duration, error) {
	b.id++
	req["id"] = b.id
	out, err := json.Marshal(req)
	if err != nil {
		return reply{}, 0, err
	}
	start := time.Now()
	_ = b.ws.SetWriteDeadline(start.Add(10 * time.Second))
	if err := b.ws.WriteMessage(websocket.TextMessage, out); err != nil {
		return reply{}, 0, err
	}
	_ = b.ws.SetReadDeadline(start.Add(30 * time.Second))
	for {
		_, r, err := b.ws.NextReader()
		if err != nil {
			return reply{}, 0, err
		}
		b.buf.Reset()
		if _, err := b.buf.ReadFrom(r); err != nil {
			return reply{}, 0, err
		}
		d := time.Since(start)
		if m, ok := answer(b.buf.Bytes(), b.id); ok {
			return m, d, nil
		}
	}
}

// answer reads a message cheaply: its head ({"type":T,"re":N,...}) and,
// for a state, the snapshot's step and ended, its first fields of those
// names (the snapshot is the message's last field; events come before it,
// and nested fields after). The browsers share the machine with the
// server: decoding every message would measure the load test's own JSON
// more than the server.
func answer(raw []byte, id int) (reply, bool) {
	var m reply
	head := fmt.Sprintf(`{"type":"state","re":%d,`, id)
	switch {
	case bytes.HasPrefix(raw, []byte(head+`"more":true`)):
		return m, false // a part of a long state: the answer is its last part, with the snapshot
	case bytes.HasPrefix(raw, []byte(head)):
		m.Type, m.Re = "state", id
		if i := bytes.LastIndex(raw, []byte(`"snap":{`)); i >= 0 {
			snap := raw[i:]
			m.Snap = &snapHead{Step: -1}
			if j := bytes.Index(snap, []byte(`"step":`)); j >= 0 {
				rest := snap[j+len(`"step":`):]
				k := bytes.IndexAny(rest, ",}")
				if n, err := strconv.Atoi(string(rest[:max(k, 0)])); err == nil {
					m.Snap.Step = n
				}
			}
			m.Snap.Ended = bytes.Contains(snap, []byte(`"ended":true`))
		}
		return m, true
	case bytes.HasPrefix(raw, []byte(fmt.Sprintf(`{"type":"error","re":%d,`, id))):
		err := json.Unmarshal(raw, &m)
		return m, err == nil
	}
	return m, false
}

// tally collects round trips and outcomes from every browser.
type tally struct {
	mu     sync.Mutex
	steps  []time.Duration
	others []time.Duration
	errs   map[string]int
	failed []string
}

func (t *tally) add(op string, d time.Duration, m reply) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if op == "step" {
		t.steps = append(t.steps, d)
	} else {
		t.others = append(t.others, d)
	}
	if m.Type == "error" {
		k := m.Error
		if i := strings.IndexAny(k, "0123456789"); i > 0 {
			k = k[:i]
		}
		t.errs[op+": "+k]++
	}
}

func pct(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(int(float64(len(s))*p), len(s)-1)]
}

// TestLoad runs LOCKSTEP_LOAD_SESSIONS browsers (default 300), each taking
// LOCKSTEP_LOAD_RATE requests a second (default 10) for LOCKSTEP_LOAD_SECONDS
// (default 60) through the built-in lessons: mostly steps, with seeks,
// steps back and faults mixed in, and a new lesson when one ends. It
// reports the step round trip (p50, p99), the server's RSS, goroutines and
// open files, then closes every socket and waits for the server to evict
// the sessions and return to its idle baseline. Set LOCKSTEP_LOAD=1 to run
// it; scripts/load.sh does.
func TestLoad(t *testing.T) {
	if os.Getenv("LOCKSTEP_LOAD") == "" {
		t.Skip("the load test runs only with LOCKSTEP_LOAD=1 (scripts/load.sh)")
	}
	sessions := env("LOCKSTEP_LOAD_SESSIONS", 300)
	rate := env("LOCKSTEP_LOAD_RATE", 10)
	seconds := env("LOCKSTEP_LOAD_SECONDS", 60)
	idle := 3 * time.Second
	srv := startServer(t, idle)
	// The browsers would run on machines of their own: here they share the
	// server's two cores, and at the same priority they take CPU from it
	// at the moments it is busiest. They run at a lower priority (nice,
	// LOCKSTEP_LOAD_NICE, default 10; 0 for the same as the server's), so
	// that they take what the server leaves.
	if n := env("LOCKSTEP_LOAD_NICE", 10); os.Getenv("LOCKSTEP_LOAD_NICE") != "0" {
		if err := lowerPriority(n); err != nil {
			t.Logf("browsers at the server's priority: %v", err)
		} else {
			t.Logf("browsers at nice %d, the server at its own priority", n)
		}
	}
	time.Sleep(200 * time.Millisecond)
	base := srv.health(t)
	baseRSS, baseFDs := srv.proc(t)
	baseCPU := srv.cpu(t)
	t.Logf("idle server: %d goroutines, %d open files, RSS %d MiB", base["goroutines"], baseFDs, baseRSS>>10)

	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
	defer cancel()
	tl := &tally{errs: map[string]int{}}
	var wg sync.WaitGroup
	var peakRSS, peakGo int64
	var peakFDs int
	go func() { // sample the server once a second
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				rss, fds := srv.proc(t)
				h := srv.health(t)
				tl.mu.Lock()
				peakRSS, peakGo, peakFDs = max(peakRSS, rss), max(peakGo, h["goroutines"]), max(peakFDs, fds)
				tl.mu.Unlock()
			}
		}
	}()
	wsURL := "ws" + strings.TrimPrefix(srv.base, "http") + "/ws"
	var socks []*websocket.Conn
	var socksMu sync.Mutex
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			ws, _, err := websocket.DefaultDialer.Dial(wsURL, nil)
			if err != nil {
				tl.mu.Lock()
				tl.failed = append(tl.failed, fmt.Sprintf("browser %d: dial: %v", i, err))
				tl.mu.Unlock()
				return
			}
			socksMu.Lock()
			socks = append(socks, ws)
			socksMu.Unlock()
			b := &browser{ws: ws}
			b.id++
			_ = ws.WriteJSON(map[string]any{"op": "hello", "id": b.id})
			var w reply
			for w.Type != "welcome" {
				if err := ws.ReadJSON(&w); err != nil {
					tl.mu.Lock()
					tl.failed = append(tl.failed, fmt.Sprintf("browser %d: hello: %v", i, err))
					tl.mu.Unlock()
					return
				}
			}
			lesson := i % len(w.Catalog)
			load := func() (reply, time.Duration, error) {
				lesson = (lesson + 1) % len(w.Catalog)
				return b.ask(map[string]any{"op": "load", "scenario": w.Catalog[lesson].ID})
			}
			m, _, err := load()
			// Browsers step on their own clocks: each starts at its own
			// phase of the period, not all in the same millisecond.
			period := time.Second / time.Duration(rate)
			time.Sleep(time.Duration(rng.Int64N(int64(period))))
			tick := time.NewTicker(period)
			defer tick.Stop()
			for err == nil {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				op := "step"
				req := map[string]any{"op": "step"}
				switch r := rng.IntN(100); {
				case m.Snap != nil && m.Snap.Ended:
					op, req = "load", nil
				case r < 6:
					op, req = "seek", map[string]any{"op": "seek", "step": rng.IntN(m.Snap.Step + 20)}
				case r < 10:
					op, req = "back", map[string]any{"op": "back"}
				case r < 13:
					c := w.Catalog[lesson].Clients[rng.IntN(len(w.Catalog[lesson].Clients))]
					f := map[string]any{"do": "pause", "client": c, "for": "300ms"}
					if rng.IntN(2) == 0 {
						f = map[string]any{"do": "drop-reply", "client": c}
					}
					op, req = "inject", map[string]any{"op": "inject", "fault": f}
				}
				var d time.Duration
				var got reply
				if req == nil {
					got, d, err = load()
				} else {
					got, d, err = b.ask(req)
				}
				if err != nil {
					break
				}
				tl.add(op, d, got)
				if got.Snap != nil {
					m = got
				}
			}
			if err != nil && ctx.Err() == nil {
				tl.mu.Lock()
				tl.failed = append(tl.failed, fmt.Sprintf("browser %d: %v", i, err))
				tl.mu.Unlock()
			}
		}()
	}
	<-ctx.Done()
	wg.Wait()
	during := srv.health(t)
	used := srv.cpu(t) - baseCPU
	for _, ws := range socks {
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		_ = ws.Close()
	}

	tl.mu.Lock()
	defer tl.mu.Unlock()
	p50, p99 := pct(tl.steps, 0.50), pct(tl.steps, 0.99)
	t.Logf("%d sessions x %d requests/s for %ds: %d steps, %d seeks/backs/faults/loads, %d browsers failed",
		sessions, rate, seconds, len(tl.steps), len(tl.others), len(tl.failed))
	t.Logf("step round trip: p50 %s, p99 %s, max %s; other requests: p50 %s, p99 %s",
		p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond), pct(tl.steps, 1).Round(time.Millisecond),
		pct(tl.others, 0.5).Round(10*time.Microsecond), pct(tl.others, 0.99).Round(10*time.Microsecond))
	us := func(k string) time.Duration { return time.Duration(during[k]) * time.Microsecond }
	t.Logf("the server's own time over a step (read to answer queued, /healthz): p50 %s, p99 %s, max %s; other requests: p50 %s, p99 %s",
		us("step_p50_us"), us("step_p99_us"), us("step_max_us").Round(time.Millisecond), us("other_p50_us"), us("other_p99_us"))
	if n := len(tl.steps) + len(tl.others); n > 0 {
		t.Logf("server CPU: %s in %ds (%.2f cores), %s per request", used.Round(10*time.Millisecond), seconds,
			used.Seconds()/float64(seconds), (used / time.Duration(n)).Round(time.Microsecond))
	}
	t.Logf("server at its peak: RSS %d MiB, %d goroutines, %d open files; at the end: %d sessions, %d sockets, memory estimate %d MiB",
		peakRSS>>10, peakGo, peakFDs, during["sessions"], during["sockets"], during["memory"]>>20)
	for k, n := range tl.errs {
		t.Logf("error replies: %d x %q", n, k)
	}
	for _, f := range tl.failed[:min(len(tl.failed), 10)] {
		t.Errorf("%s", f)
	}
	if p99 > 20*time.Millisecond {
		t.Errorf("step round trip p99 %s: the goal is under 20ms", p99)
	}
	if peakRSS > 1<<20 {
		t.Errorf("server RSS %d MiB: the goal is under 1 GiB", peakRSS>>10)
	}

	// Every socket closed: the sessions are evicted after idle, and the
	// server returns to its baseline.
	deadline := time.Now().Add(idle + 30*time.Second)
	var h map[string]int64
	var fds int
	var rss int64
	for {
		h = srv.health(t)
		rss, fds = srv.proc(t)
		if h["sessions"] == 0 && h["sockets"] == 0 && h["goroutines"] <= base["goroutines"]+2 && fds <= baseFDs+2 && h["memory"] == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("after closing every socket: expected the idle baseline (0 sessions, %d goroutines, %d files), got %d sessions, %d sockets, %d goroutines, %d files, memory %d",
				base["goroutines"], baseFDs, h["sessions"], h["sockets"], h["goroutines"], fds, h["memory"])
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("back to idle: %d sessions, %d goroutines (baseline %d), %d open files (baseline %d), RSS %d MiB (Go returns freed memory to the OS lazily)",
		h["sessions"], h["goroutines"], base["goroutines"], fds, baseFDs, rss>>10)
}
