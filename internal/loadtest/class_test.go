package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// classMsg is what the class load test reads of a class message.
type classMsg struct {
	Type  string `json:"type"`
	Re    int    `json:"re"`
	Code  string `json:"code"`
	Error string `json:"error"`
	Class *struct {
		Code     string `json:"code"`
		Token    string `json:"token"`
		Question *struct {
			ID     int   `json:"id"`
			Open   bool  `json:"open"`
			Counts []int `json:"counts"`
		} `json:"question"`
		Counts *struct {
			Members  int `json:"members"`
			Answered int `json:"answered"`
		} `json:"counts"`
	} `json:"class"`
}

// stateStep reads the snapshot's step of a state message that no request
// asked for (a student's world following the teacher), cheaply: -1 for any
// other message.
func stateStep(raw []byte) int {
	if !bytes.HasPrefix(raw, []byte(`{"type":"state","from":`)) {
		return -1
	}
	i := bytes.LastIndex(raw, []byte(`"snap":{`))
	if i < 0 {
		return -1
	}
	snap := raw[i:]
	j := bytes.Index(snap, []byte(`"step":`))
	if j < 0 {
		return -1
	}
	rest := snap[j+len(`"step":`):]
	k := bytes.IndexAny(rest, ",}")
	n, err := strconv.Atoi(string(rest[:max(k, 0)]))
	if err != nil {
		return -1
	}
	return n
}

// dialWS opens a socket and says hello.
func dialWS(url string) (*websocket.Conn, error) {
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		return nil, err
	}
	if err := ws.WriteJSON(map[string]any{"op": "hello", "id": 1}); err != nil {
		return nil, err
	}
	for {
		var m classMsg
		if err := ws.ReadJSON(&m); err != nil {
			return nil, err
		}
		if m.Type == "welcome" {
			return ws, nil
		}
	}
}

// TestLoadClass runs LOCKSTEP_CLASS_ROOMS classes (default 1) of
// LOCKSTEP_CLASS_STUDENTS students each (default 300) against the real
// server in its own process: each teacher steps once a second for
// LOCKSTEP_CLASS_SECONDS (default 30), and every student's socket reports
// when the step reaches it (its own world replayed to the teacher's new
// cursor, pushed as a state message); then each teacher asks a question
// that every student answers within 5 s, and the test checks that every
// answer is counted. It prints the step-to-every-screen latency (p50, p99,
// max) and the server's RSS. Set LOCKSTEP_LOAD_CLASS=1 to run it;
// scripts/load-class.sh does.
func TestLoadClass(t *testing.T) {
	if os.Getenv("LOCKSTEP_LOAD_CLASS") == "" {
		t.Skip("the class load test runs only with LOCKSTEP_LOAD_CLASS=1 (scripts/load-class.sh)")
	}
	rooms := env("LOCKSTEP_CLASS_ROOMS", 1)
	students := env("LOCKSTEP_CLASS_STUDENTS", 300)
	seconds := env("LOCKSTEP_CLASS_SECONDS", 30)
	lessonID := os.Getenv("LOCKSTEP_CLASS_LESSON")
	if lessonID == "" {
		lessonID = "redlock-clock-jump"
	}
	srv := startServer(t, 30*time.Second)
	if n := env("LOCKSTEP_LOAD_NICE", 10); os.Getenv("LOCKSTEP_LOAD_NICE") != "0" {
		if err := lowerPriority(n); err != nil {
			t.Logf("students at the server's priority: %v", err)
		} else {
			t.Logf("students at nice %d, the server at its own priority", n)
		}
	}
	time.Sleep(200 * time.Millisecond)
	baseRSS, _ := srv.proc(t)
	wsURL := "ws" + strings.TrimPrefix(srv.base, "http") + "/ws"

	type class struct {
		teacher *websocket.Conn
		code    string
		mu      sync.Mutex
		sent    map[int]time.Time // the teacher's step requests by the step they reach
		tmsgs   chan classMsg
	}
	var lat struct {
		sync.Mutex
		d []time.Duration
	}
	classes := make([]*class, rooms)
	for r := range rooms {
		ws, err := dialWS(wsURL)
		if err != nil {
			t.Fatalf("teacher %d: %v", r, err)
		}
		c := &class{teacher: ws, sent: map[int]time.Time{}, tmsgs: make(chan classMsg, 1024)}
		_ = ws.WriteJSON(map[string]any{"op": "load", "scenario": lessonID, "id": 2})
		_ = ws.WriteJSON(map[string]any{"op": "class-start", "origin": "http://127.0.0.1", "id": 3})
		for c.code == "" {
			var m classMsg
			if err := ws.ReadJSON(&m); err != nil {
				t.Fatalf("teacher %d: %v", r, err)
			}
			if m.Type == "error" {
				t.Fatalf("teacher %d: %s", r, m.Error)
			}
			if m.Type == "class" && m.Class != nil {
				c.code = m.Class.Code
			}
		}
		go func() { // the teacher's messages: the class ones matter
			for {
				_, raw, err := ws.ReadMessage()
				if err != nil {
					close(c.tmsgs)
					return
				}
				if bytes.HasPrefix(raw, []byte(`{"type":"class"`)) {
					var m classMsg
					if json.Unmarshal(raw, &m) == nil {
						c.tmsgs <- m
					}
				}
			}
		}()
		classes[r] = c
	}
	// Students join, each on its own socket.
	type student struct {
		ws       *websocket.Conn
		question atomic.Int64
	}
	var all []*student
	var joinWG sync.WaitGroup
	var joinMu sync.Mutex
	joinStart := time.Now()
	for r, c := range classes {
		for i := range students {
			joinWG.Add(1)
			go func() {
				defer joinWG.Done()
				ws, err := dialWS(wsURL)
				if err != nil {
					t.Errorf("student %d/%d: %v", r, i, err)
					return
				}
				st := &student{ws: ws}
				_ = ws.WriteJSON(map[string]any{"op": "class-join", "code": c.code, "name": fmt.Sprintf("s%d", i), "id": 2})
				joinMu.Lock()
				all = append(all, st)
				joinMu.Unlock()
				go func() { // the student's screen
					for {
						_, raw, err := ws.ReadMessage()
						if err != nil {
							return
						}
						now := time.Now()
						if step := stateStep(raw); step >= 0 {
							c.mu.Lock()
							at, ok := c.sent[step]
							c.mu.Unlock()
							if ok {
								lat.Lock()
								lat.d = append(lat.d, now.Sub(at))
								lat.Unlock()
							}
							continue
						}
						if bytes.HasPrefix(raw, []byte(`{"type":"class"`)) {
							var m classMsg
							if json.Unmarshal(raw, &m) == nil && m.Class != nil && m.Class.Question != nil && m.Class.Question.Open {
								st.question.Store(int64(m.Class.Question.ID))
							}
						}
						if bytes.HasPrefix(raw, []byte(`{"type":"error"`)) {
							t.Errorf("student %d/%d: %s", r, i, raw)
						}
					}
				}()
			}()
		}
	}
	joinWG.Wait()
	t.Logf("%d classes of %d students joined in %s", rooms, students, time.Since(joinStart).Round(time.Millisecond))
	time.Sleep(2 * time.Second) // every late joiner caught up

	// The teachers step once a second, each at its own phase.
	var peakRSS int64
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	steps := atomic.Int64{}
	for r, c := range classes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 9))
			time.Sleep(time.Duration(rng.Int64N(int64(time.Second))))
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			cursor, id := 0, 100
			for {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				id++
				cursor++
				req := map[string]any{"op": "seek", "step": cursor, "id": id}
				if cursor > 60 { // start over, unmeasured
					cursor = 0
					req = map[string]any{"op": "seek", "step": 0, "id": id}
				} else {
					c.mu.Lock()
					c.sent[cursor] = time.Now()
					c.mu.Unlock()
					steps.Add(1)
				}
				_ = c.teacher.WriteJSON(req)
			}
		}()
	}
	go func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				rss, _ := srv.proc(t)
				peakRSS = max(peakRSS, rss)
			}
		}
	}()
	<-ctx.Done()
	wg.Wait()
	time.Sleep(time.Second)
	lat.Lock()
	got := slices.Clone(lat.d)
	lat.Unlock()
	want := int(steps.Load()) * students
	t.Logf("%d classes × %d students, a step a second for %ds: %d teacher steps, %d arrivals of %d expected",
		rooms, students, seconds, steps.Load(), len(got), want)
	p50, p99, worst := pct(got, 0.5), pct(got, 0.99), pct(got, 1)
	t.Logf("a teacher's step to every student's screen: p50 %s, p99 %s, max %s", p50.Round(100*time.Microsecond), p99.Round(100*time.Microsecond), worst.Round(time.Millisecond))
	if len(got) < want*99/100 {
		t.Errorf("only %d of %d step arrivals seen", len(got), want)
	}
	if p99 > 150*time.Millisecond {
		t.Errorf("p99 %s: the goal is under 150 ms", p99)
	}

	// A question each: every student answers within 5 s; every answer counts.
	for _, c := range classes {
		_ = c.teacher.WriteJSON(map[string]any{"op": "class-ask", "id": 900, "ask": map[string]any{"kind": "free", "text": "Safe?", "choices": []string{"yes", "no"}}})
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		ready := 0
		for _, s := range all {
			if s.question.Load() > 0 {
				ready++
			}
		}
		if ready == len(all) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	answerStart := time.Now()
	var aw sync.WaitGroup
	for i, s := range all {
		aw.Add(1)
		go func() {
			defer aw.Done()
			time.Sleep(time.Duration(rand.N(int64(4500 * time.Millisecond))))
			_ = s.ws.WriteJSON(map[string]any{"op": "class-answer", "question": s.question.Load(), "choice": i % 2, "id": 1000})
		}()
	}
	aw.Wait()
	for r, c := range classes {
		counted := 0
		timeout := time.After(10 * time.Second)
	wait:
		for counted < students {
			select {
			case m, ok := <-c.tmsgs:
				if !ok {
					break wait
				}
				if m.Class != nil && m.Class.Counts != nil {
					counted = m.Class.Counts.Answered
				}
			case <-timeout:
				break wait
			}
		}
		if counted != students {
			t.Errorf("class %d: %d of %d answers counted", r, counted, students)
		}
	}
	t.Logf("%d answers sent over 4.5 s; all counted %s after the first was sent", len(all), time.Since(answerStart).Round(time.Millisecond))
	rss, fds := srv.proc(t)
	t.Logf("server RSS: idle %d MiB, peak %d MiB, now %d MiB; %d open files", baseRSS>>10, peakRSS>>10, rss>>10, fds)
	if peakRSS > 1<<20 {
		t.Errorf("server RSS %d MiB: the goal is under 1 GiB", peakRSS>>10)
	}
	for _, s := range all {
		_ = s.ws.Close()
	}
	for _, c := range classes {
		_ = c.teacher.Close()
	}
}
