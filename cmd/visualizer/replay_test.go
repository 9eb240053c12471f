package main

import (
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/server"
)

// page is a test browser on the app's WebSocket: it keeps the event log as
// the page does, from the state messages.
type page struct {
	t    *testing.T
	ws   *websocket.Conn
	id   int
	log  []string // each event's text line
	snap struct {
		Ended     bool     `json:"ended"`
		Verdicts  []string `json:"verdicts"`
		Step      int      `json:"step"`
		OffScript bool     `json:"offScript"`
	}
}

// message is the part of the server's messages the test reads.
type message struct {
	Type   string `json:"type"`
	Error  string `json:"error"`
	From   *int   `json:"from"`
	Events []struct {
		Text string `json:"text"`
	} `json:"events"`
	Snap *struct {
		Ended     bool     `json:"ended"`
		Verdicts  []string `json:"verdicts"`
		Step      int      `json:"step"`
		OffScript bool     `json:"offScript"`
	} `json:"snap"`
	Name string `json:"name"`
	Text string `json:"text"`
}

func openPage(t *testing.T, url string) *page {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	p := &page{t: t, ws: ws}
	p.do(map[string]any{"op": "hello"}, "welcome")
	return p
}

// do sends a request and reads messages until its answer of type want.
func (p *page) do(req map[string]any, want string) message {
	p.t.Helper()
	p.id++
	req["id"] = p.id
	if err := p.ws.WriteJSON(req); err != nil {
		p.t.Fatal(err)
	}
	_ = p.ws.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		var m message
		if err := p.ws.ReadJSON(&m); err != nil {
			p.t.Fatalf("%v: waiting for %s: %v", req, want, err)
		}
		if m.Type == "error" {
			p.t.Fatalf("%v: %s", req, m.Error)
		}
		if m.Type == "state" {
			p.log = p.log[:*m.From]
			for _, e := range m.Events {
				p.log = append(p.log, e.Text)
			}
			p.snap = *m.Snap
		}
		if m.Type == want {
			return m
		}
	}
}

// stepUntil steps until the log holds a line containing text.
func (p *page) stepUntil(text string) {
	p.t.Helper()
	for !strings.Contains(strings.Join(p.log, "\n"), text) {
		if p.snap.Ended {
			p.t.Fatalf("the run ended without %q", text)
		}
		p.do(map[string]any{"op": "step"}, "state")
	}
}

func (p *page) runToEnd() {
	p.t.Helper()
	for !p.snap.Ended {
		p.do(map[string]any{"op": "step", "n": 1000}, "state")
	}
}

// A viewer takes lua-cad-slow-release off its script: A is paused for 5s
// right after it enters, so its 3s lease runs out under it and B walks in.
// The lesson expects safe; this run is a mutual exclusion. The page saves
// the run as YAML; the file's expect: is the run's own verdicts, and the
// command line and a fresh page that loads the file both replay the very
// same log, line for line.
func TestRecordingSavedInTheBrowserReplaysOnTheCommandLine(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := server.New(server.Options{Catalog: f,
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })

	p := openPage(t, ts.URL)
	p.do(map[string]any{"op": "load", "scenario": "lua-cad-slow-release"}, "state")
	p.stepUntil("mark A enter")
	if p.snap.OffScript {
		t.Fatal("the run is off its script before the viewer changed it")
	}
	p.do(map[string]any{"op": "inject", "fault": map[string]any{"do": "pause", "client": "A", "for": "5s"}}, "state")
	if !p.snap.OffScript {
		t.Fatal("after an injected fault the state push does not say the run is off its script")
	}
	p.runToEnd()
	if log := strings.Join(p.log, "\n"); strings.Contains(log, "No two clients were ever inside together") || !strings.Contains(log, "say  off-script") {
		t.Fatalf("want the off-script note and not the lesson's closing line:\n%s", log)
	}
	if !slices.Contains(p.snap.Verdicts, "mutual-exclusion") {
		t.Fatalf("A paused inside past its lease: want mutual-exclusion among the verdicts, got %v\n%s", p.snap.Verdicts, strings.Join(p.log, "\n"))
	}
	yaml := p.do(map[string]any{"op": "export-yaml"}, "yaml").Text
	saved, err := scenario.Parse("recording.yaml", []byte(yaml))
	if err != nil {
		t.Fatalf("the saved recording does not parse: %v\n%s", err, yaml)
	}
	rec := saved.Scenarios[0]
	if len(rec.Schedule) != 1 || strings.Join(rec.Expect, ",") != strings.Join(p.snap.Verdicts, ",") {
		t.Fatalf("recording: want one scheduled fault and expect %v (the run's verdicts, not the lesson's [safe]); got schedule %v, expect %v", p.snap.Verdicts, rec.Schedule, rec.Expect)
	}
	path := writeFile(t, "recording.yaml", yaml)

	want := strings.Join(p.log, "\n") + "\nverdict: " + strings.Join(p.snap.Verdicts, ", ") + "\n"
	if got := visualizer(t, "run", "lua-cad-slow-release", "--file", path).stdout; got != want {
		t.Fatalf("visualizer run --file of the recording differs from the browser's run:\n%s", firstDiff(want, got))
	}
	if got := visualizer(t, "test", "--file", path).stdout; !strings.HasPrefix(got, "ok   lua-cad-slow-release") {
		t.Errorf("visualizer test --file of the recording: %s", got)
	}
	if got := visualizer(t, "check", path).stdout; !strings.Contains(got, ": ok, 1 scenarios") {
		t.Errorf("visualizer check of the recording: %s", got)
	}

	fresh := openPage(t, ts.URL)
	fresh.do(map[string]any{"op": "load", "yaml": yaml}, "state")
	fresh.runToEnd()
	if got := strings.Join(fresh.log, "\n"); got != strings.Join(p.log, "\n") {
		t.Fatalf("loading the recording in a fresh page gives another log:\n%s", firstDiff(strings.Join(p.log, "\n"), got))
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n want: " + a + "\n  got: " + b
		}
	}
	return "(same)"
}
