package server

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep/internal/scenario"
)

// A page may send anything: every op with arguments out of range, of the
// wrong type, or missing. Each gets an error that answers it, and neither
// the session nor the server is the worse for it.
func TestEveryOpRefusesExtremeArguments(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	bad := []string{
		// play: a speed of almost nothing once crashed the whole server.
		`"op":"play","speed":1e-10`,
		`"op":"play","speed":1e-300`,
		`"op":"play","speed":-1`,
		`"op":"play","speed":1e300`,
		`"op":"play","speed":"fast"`,
		// step: negative, huge, fractional, of the wrong type.
		`"op":"step","n":-1`,
		`"op":"step","n":9223372036854775807`,
		`"op":"step","n":1e300`,
		`"op":"step","n":1.5`,
		`"op":"step","n":"3"`,
		// seek: missing, negative, beyond the cap, of the wrong type.
		`"op":"seek"`,
		`"op":"seek","step":null`,
		`"op":"seek","step":-5`,
		`"op":"seek","step":1000000000000000000`,
		`"op":"seek","step":"end"`,
		// load: a cursor out of range, recorded actions that could never replay.
		`"op":"load","scenario":"no-lock-oversell","step":-1`,
		`"op":"load","scenario":"no-lock-oversell","step":99999999`,
		`"op":"load","scenario":"no-lock-oversell","actions":[{"step":0,"do":"pause","client":"A","for":"2562047h"}]`,
		`"op":"load","scenario":"no-lock-oversell","actions":[{"step":3,"do":"crash","client":"Z"}]`,
		`"op":"load","scenario":"no-lock-oversell","actions":[{"step":-3,"do":"crash","client":"A"}]`,
		`"op":"load","scenario":"no-lock-oversell","actions":[{"step":5,"do":"crash","client":"A"},{"step":2,"do":"crash","client":"B"}]`,
		`"op":"load","scenario":"no-lock-oversell","actions":[{"step":1,"do":"meteor"}]`,
		`"op":"load","scenario":"no-lock-oversell","actions":"all"`,
		`"op":"load","scenario":"no-lock-oversell","seed":"abc"`,
		`"op":"load","scenario":"no-lock-oversell","seed":1e300`,
		`"op":"load"`,
		`"op":"load","scenario":7`,
		// inject: durations past every limit, negative, missing, the wrong shape.
		`"op":"inject","fault":{"do":"pause","client":"A","for":"2562047h"}`,
		`"op":"inject","fault":{"do":"pause","client":"A","for":"-1s"}`,
		`"op":"inject","fault":{"do":"pause","client":"A"}`,
		`"op":"inject","fault":{"do":"clock-jump","node":"redis","by":"-9999h"}`,
		`"op":"inject","fault":{"do":"crash","client":"nobody"}`,
		`"op":"inject","fault":{}`,
		`"op":"inject","fault":"crash"`,
		`"op":"inject"`,
		// the rest: missing or mistyped arguments.
		`"op":"step-client"`,
		`"op":"step-client","client":5`,
		`"op":"reset","seed":"x"`,
		`"op":"seed"`,
		`"op":"hello","session":123`,
		`"op":"check","yaml":5`,
		`"op":""`,
		`"op":5`,
		`"op":"explode"`,
		// explore: a budget or a strategy it cannot read.
		`"op":"explore","budget":"meteor:5s"`,
		`"op":"explore","budget":"pause"`,
		`"op":"explore","strategy":"greedy"`,
	}
	for _, args := range bad {
		c.id++
		msg := fmt.Sprintf(`{"id":%d,%s}`, c.id, args)
		if err := c.ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatalf("%s: the server is gone: %v", msg, err)
		}
		e := c.next("error")
		if e.Re != c.id || e.Error == "" {
			t.Errorf("%s: expected an error answering id %d, got re %d %q", msg, c.id, e.Re, e.Error)
		}
		if e.Code == "" || e.Code == "error" {
			t.Errorf("%s: the error %q has no code of its own (%q): the page cannot say it in 中文", msg, e.Error, e.Code)
		}
		// A bad argument says how in 中文 too, not only which argument.
		if d, _ := e.Args["detail"].(map[string]any); e.Code == "bad-argument" && !hasHan(d["zh"]) {
			t.Errorf("%s: the bad argument %q says nothing in 中文 of how: %v", msg, e.Error, e.Args)
		}
	}
	for _, raw := range []string{`null`, `[]`, `"step"`, `{}`, `{"id":"x","op":"step"}`, `{"op":"step","n":` + strings.Repeat("9", 400) + `}`} {
		if err := c.ws.WriteMessage(websocket.TextMessage, []byte(raw)); err != nil {
			t.Fatalf("%s: the server is gone: %v", raw, err)
		}
		if e := c.next("error"); e.Error == "" || e.Code == "" || e.Code == "error" {
			t.Errorf("%s: expected an error with a code of its own, got %q (%q)", raw, e.Error, e.Code)
		}
	}
	c.send(map[string]any{"op": "step"})
	if s := c.next("state"); s.Snap.Step != 1 || s.Snap.Scenario != "no-lock-oversell" || len(s.Snap.Actions) != 0 {
		t.Errorf("after %d bad requests: expected no-lock-oversell at step 1 with no actions, got %s at step %d with %d actions",
			len(bad), s.Snap.Scenario, s.Snap.Step, len(s.Snap.Actions))
	}
	d, _, err := dial(t, url, "")
	if err != nil {
		t.Fatalf("after the bad requests: expected the server to take a new socket, got %v", err)
	}
	d.hello("")
}

// The slowest and fastest speeds a page may ask for both play.
func TestPlayAtTheSpeedLimits(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	for _, speed := range []float64{MinSpeed, 1000} {
		c.send(map[string]any{"op": "play", "speed": speed})
		if s := c.next("state"); !s.Snap.Playing || s.Snap.Speed != speed {
			t.Errorf("play at %g: expected to play at %g, got playing=%v speed %g", speed, speed, s.Snap.Playing, s.Snap.Speed)
		}
		c.send(map[string]any{"op": "pause"})
		c.next("state")
	}
}

// A request that panics ends only its own session: its socket gets an error
// and close 1011, the server logs the panic, and another session carries on.
func TestAPanicEndsOnlyItsSession(t *testing.T) {
	var mu sync.Mutex
	var logged []string
	app, url := newTestServer(t, Limits{})
	app.opts.Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf(format, args...))
	}
	testPanic = func(r *Request) {
		if r.Op == "sync" {
			panic("a bug in the sync op")
		}
	}
	t.Cleanup(func() { testPanic = nil })

	other, _, _ := dial(t, url, "")
	other.hello("")
	other.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	other.next("state")

	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	c.send(map[string]any{"op": "sync"})
	if e := c.next("error"); !strings.Contains(e.Error, "a bug in the sync op") || !strings.Contains(e.Error, "session has ended") {
		t.Errorf("panic: expected an error naming the panic and saying the session ended, got %q", e.Error)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseInternalServerErr) {
				t.Errorf("panic: expected close 1011, got %v", err)
			}
			break
		}
	}
	if n := app.Sessions(); n != 1 {
		t.Errorf("panic: expected the panicked session forgotten and the other kept (1 session), got %d", n)
	}
	mu.Lock()
	log := strings.Join(logged, "\n")
	mu.Unlock()
	if !strings.Contains(log, "panic: a bug in the sync op") {
		t.Errorf("panic: expected it in the server log, got %q", log)
	}
	other.send(map[string]any{"op": "step"})
	if s := other.next("state"); s.Snap.Step != 1 {
		t.Errorf("the other session: expected it to step to 1, got %d", s.Snap.Step)
	}
}

// The scenario package owns the caps on a scenario: a server may lower
// them, never raise them past what scenario validation allows.
func TestTheServerCannotRaiseTheScenarioCaps(t *testing.T) {
	_, url := newTestServer(t, Limits{MaxClients: 64, MaxNodes: 16, MaxHorizon: time.Hour, MaxSteps: 1 << 30})
	c, _, _ := dial(t, url, "")
	w := c.hello("")
	got := *w.Limits
	if got.MaxClients != scenario.MaxClients || got.MaxNodes != scenario.MaxNodesPerScenario ||
		got.MaxHorizon != scenario.MaxHorizon || got.MaxSteps != scenario.MaxSteps {
		t.Errorf("caps above the scenario limits: expected %d clients, %d nodes, horizon %s, %d steps; got %d, %d, %s, %d",
			scenario.MaxClients, scenario.MaxNodesPerScenario, scenario.MaxHorizon, scenario.MaxSteps,
			got.MaxClients, got.MaxNodes, got.MaxHorizon, got.MaxSteps)
	}
}

// Close returns only once every socket has sent its 1001: a process that
// exits right after it leaves no browser with a 1006.
func TestCloseWaitsForEveryGoodbye(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	var socks []*client
	for range 20 {
		c, _, err := dial(t, url, "")
		if err != nil {
			t.Fatal(err)
		}
		c.hello("")
		socks = append(socks, c)
	}
	// This server's sockets: a writer of another test's server, still
	// saying its goodbye, is not this Close's to wait for.
	app.mu.Lock()
	conns := make([]*conn, 0, len(app.conns))
	for c := range app.conns {
		conns = append(conns, c)
	}
	app.mu.Unlock()
	if len(conns) != len(socks) {
		t.Fatalf("expected the server to hold %d sockets, got %d", len(socks), len(conns))
	}
	app.Close()
	running := 0
	for _, c := range conns {
		select {
		case <-c.finished:
		default:
			running++
		}
	}
	if running > 0 {
		buf := make([]byte, 1<<20)
		t.Errorf("after Close: expected every socket's writer done, found %d still running:\n%s", running, buf[:runtime.Stack(buf, true)])
	}
	for i, c := range socks {
		_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			if _, _, err := c.ws.ReadMessage(); err != nil {
				if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
					t.Errorf("socket %d: expected close 1001, got %v", i, err)
				}
				break
			}
		}
	}
}

// A file with thousands of problems is answered with the first 20 and a
// count of the rest: a page, not a megabyte.
func TestAFileFullOfProblemsGetsAShortAnswer(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	var b strings.Builder
	b.WriteString("scenarios:\n")
	for i := 0; b.Len() < 60<<10; i++ {
		fmt.Fprintf(&b, "  - {id: s%d, colour: red, clients: [{name: A, algorithm: nope}], expect: [maybe]}\n", i)
	}
	c.send(map[string]any{"op": "check", "yaml": b.String()})
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, raw, err := c.ws.ReadMessage()
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := json.Unmarshal(raw, &m); err != nil || m.Type != "checked" {
		t.Fatalf("check: expected a checked message, got %.200s (%v)", raw, err)
	}
	last := m.Errors[len(m.Errors)-1].Msg
	if len(m.Errors) != scenario.MaxReported+1 || !strings.Contains(last, "more problems") {
		t.Errorf("check: expected %d problems and a count of the rest, got %d ending with %q", scenario.MaxReported, len(m.Errors), last)
	}
	if len(raw) > 16<<10 {
		t.Errorf("check: expected an answer under 16 KiB, got %d bytes", len(raw))
	}
}

// hasHan reports whether v is a string with a Chinese character.
func hasHan(v any) bool {
	s, _ := v.(string)
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) })
}
