package server

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// newTestServer runs the app on a loopback port with a stub page.
func newTestServer(t testing.TB, l Limits, allow ...string) (*Server, string) {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(Options{Catalog: f, Limits: l, AllowOrigins: allow,
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p>{{len .Catalog}} scenarios</p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })
	return app, ts.URL
}

// client is a test browser speaking the protocol.
type client struct {
	t       *testing.T
	ws      *websocket.Conn
	id      int
	actions []scenario.Action // the recorded actions held, as the page keeps them (keep)
	seen    func(*Message)    // roundTrip shows it every message read, if set
	parts   int               // the parts the last long state came in (join)
}

// keep makes a state message's actions whole, as the page does: with
// actionsFrom, the first actionsFrom actions held and the ones sent.
func (c *client) keep(m *Message) {
	if m.Type == "state" && m.More {
		c.join(m)
	}
	if m.Type != "state" || m.Snap == nil {
		return
	}
	if n := m.Snap.ActionsFrom; n != nil {
		m.Snap.Actions = append(append([]scenario.Action{}, c.actions[:*n]...), m.Snap.Actions...)
		m.Snap.ActionsFrom = nil
	}
	c.actions = m.Snap.Actions
}

// join reads the rest of a long state sent in parts (More) into m, as the
// page takes them: one state, from the first part's From on, with the
// last part's snapshot. Each part follows the one before (its From where
// that one's events end), and nothing else comes between them.
func (c *client) join(m *Message) {
	c.t.Helper()
	c.parts = 1
	for m.More {
		var p Message
		if err := c.ws.ReadJSON(&p); err != nil {
			c.t.Fatalf("reading a state's part %d: %v", c.parts+1, err)
		}
		c.parts++
		if p.Type != "state" || p.Re != m.Re || p.From == nil || *p.From != *m.From+len(m.Events) {
			c.t.Fatalf("a state's part %d: expected a state re %d from %d, got %s re %d from %v", c.parts, m.Re, *m.From+len(m.Events), p.Type, p.Re, p.From)
		}
		if p.More == (p.Snap != nil) {
			c.t.Fatalf("a state's part %d: more=%v with snapshot %v: the last part, and only it, carries the snapshot", c.parts, p.More, p.Snap != nil)
		}
		m.Events, m.Snap, m.More = append(m.Events, p.Events...), p.Snap, p.More
	}
}

func dial(t *testing.T, url string, origin string) (*client, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http")+"/ws", h)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}, resp, nil
}

func (c *client) send(m map[string]any) {
	c.t.Helper()
	c.id++
	m["id"] = c.id
	if err := c.ws.WriteJSON(m); err != nil {
		c.t.Fatalf("send %v: %v", m, err)
	}
}

// next reads messages until one of type typ arrives.
func (c *client) next(typ string) Message {
	c.t.Helper()
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for a %s message: %v", typ, err)
		}
		c.keep(&m)
		if m.Type == typ {
			return m
		}
	}
}

// hello says hello and reads until the welcome; an error answering the
// hello ends the test at once.
func (c *client) hello(session string) Message {
	c.t.Helper()
	c.send(map[string]any{"op": "hello", "session": session})
	_ = c.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for a welcome: %v", err)
		}
		c.keep(&m)
		switch {
		case m.Type == "welcome":
			return m
		case m.Type == "error" && m.Re == c.id:
			c.t.Fatalf("hello %q: refused: %s (%s)", session, m.Code, m.Error)
		}
	}
}

// openSession starts a server with limits l and a browser of a new
// session on it, welcomed.
func openSession(t *testing.T, l Limits) *client {
	t.Helper()
	_, url := newTestServer(t, l)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	return c
}

func TestIndexShowsTheCatalog(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if want := regexp.MustCompile(`<p>[1-9][0-9]* scenarios</p>`); !want.Match(body) {
		t.Errorf("index page: expected the catalog's size in %q", body)
	}
}

func TestStepsSendOnlyNewEvents(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	w := c.hello("")
	if w.V != ProtocolVersion || w.Session == "" || len(w.Catalog) == 0 {
		t.Fatalf("welcome: expected version %d, a session and the catalog; got %+v", ProtocolVersion, w)
	}
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	s := c.next("state")
	if *s.From != 0 || s.Snap.Step != 0 {
		t.Fatalf("load: expected the whole log at step 0, got from %d step %d", *s.From, s.Snap.Step)
	}
	have := len(s.Events)
	for i := 0; i < 5; i++ {
		c.send(map[string]any{"op": "step"})
		s = c.next("state")
		if *s.From != have {
			t.Fatalf("step %d: expected events from %d (what the browser holds), got from %d", i+1, have, *s.From)
		}
		have += len(s.Events)
	}
	c.send(map[string]any{"op": "back"})
	s = c.next("state")
	if s.Snap.Step != 4 || *s.From > have || len(s.Events) != 0 || s.Snap.Events != *s.From {
		t.Fatalf("back: expected step 4 and the browser told to keep a prefix; got step %d from %d with %d events (log %d)", s.Snap.Step, *s.From, len(s.Events), s.Snap.Events)
	}
}

func TestBadInputGetsAnErrorAndTheSessionSurvives(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	if err := c.ws.WriteMessage(websocket.TextMessage, []byte("{not json")); err != nil {
		t.Fatal(err)
	}
	if e := c.next("error"); !strings.Contains(e.Error, "bad message") {
		t.Errorf("garbage: expected a 'bad message' error, got %q", e.Error)
	}
	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	c.next("state")
	for _, bad := range []map[string]any{
		{"op": "explode"},
		{"op": "seek"},
		{"op": "inject", "fault": map[string]any{"do": "meteor", "client": "A"}},
		{"op": "step-client", "client": "Z"},
		{"op": "load", "scenario": "no-such"},
		{"op": "load", "yaml": "scenarios:\n  - id: x\n    clients: 3\n"},
	} {
		c.send(bad)
		if e := c.next("error"); e.Error == "" {
			t.Errorf("%v: expected an error message, got none", bad)
		}
	}
	c.send(map[string]any{"op": "step"})
	if s := c.next("state"); s.Snap.Step != 1 || s.Snap.Scenario != "no-lock-oversell" {
		t.Errorf("after bad input: expected the session to step to 1 of no-lock-oversell, got step %d of %s", s.Snap.Step, s.Snap.Scenario)
	}
}

func TestYAMLErrorsCarryLines(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "check", "yaml": "scenarios:\n  - id: x\n    colour: red\n"})
	m := c.next("checked")
	found := false
	for _, e := range m.Errors {
		found = found || e.Line == 3 && strings.Contains(e.Msg, "colour")
	}
	if !found {
		t.Fatalf("check: expected the unknown field colour at line 3, got %+v", m.Errors)
	}
}

// A good file that runs otherwise than written is checked with warnings
// at their lines, as visualizer check prints them: setnx-then-expire sets
// its TTL with EXPIRE, in whole seconds, so ttl 1500ms runs as 1s (line
// 6); a file with problems gets its problems and no warnings.
func TestCheckWarnsWhatRunsOtherwiseThanWritten(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	good := "scenarios:\n  - id: x\n    title: {en: x}\n    expect: [safe]\n    clients:\n      - {name: A, algorithm: setnx-then-expire, params: {ttl: 1500ms}}\n"
	c.send(map[string]any{"op": "check", "yaml": good})
	m := c.next("checked")
	if len(m.Errors) != 0 || len(m.Warnings) != 1 || m.Warnings[0].Line != 6 || !strings.Contains(m.Warnings[0].Msg, "runs as 1s") || m.Warnings[0].Zh == "" {
		t.Fatalf("check: expected no errors and the rounded TTL at line 6 in both languages, got %+v %+v", m.Errors, m.Warnings)
	}
	c.send(map[string]any{"op": "check", "yaml": good + "    colour: red\n"})
	if m := c.next("checked"); len(m.Errors) == 0 || len(m.Warnings) != 0 {
		t.Fatalf("check: expected the unknown field and no warnings, got %+v %+v", m.Errors, m.Warnings)
	}
}

func TestOriginIsChecked(t *testing.T) {
	_, url := newTestServer(t, Limits{}, "http://localhost:9999")
	if _, resp, err := dial(t, url, "http://evil.example"); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign origin: expected 403, got %v %v", resp, err)
	}
	if _, _, err := dial(t, url, url); err != nil {
		t.Errorf("same origin: expected to connect, got %v", err)
	}
	if _, _, err := dial(t, url, "http://localhost:9999"); err != nil {
		t.Errorf("allowed origin: expected to connect, got %v", err)
	}
}

func TestOversizedMessageClosesWith1009(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	big := `{"op":"check","yaml":"` + strings.Repeat("a", readLimit+10) + `"}`
	_ = c.ws.WriteMessage(websocket.TextMessage, []byte(big))
	_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
				t.Errorf("oversized message: expected close 1009, got %v", err)
			}
			return
		}
	}
}

func TestCapsAreAnsweredWithErrors(t *testing.T) {
	_, url := newTestServer(t, Limits{MaxSessions: 1, MaxClients: 2, MaxSteps: 10})
	a, _, _ := dial(t, url, "")
	a.hello("")
	a.send(map[string]any{"op": "load", "scenario": "blind-del-long-work"})
	if e := a.next("error"); !strings.Contains(e.Error, "3 clients, over the cap of 2") {
		t.Errorf("clients cap: got %q", e.Error)
	}
	a.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	a.next("state")
	a.send(map[string]any{"op": "seek", "step": 11})
	if e := a.next("error"); !strings.Contains(e.Error, "cap of 10 steps") {
		t.Errorf("steps cap: got %q", e.Error)
	}
	b, _, _ := dial(t, url, "")
	b.send(map[string]any{"op": "hello"})
	if e := b.next("error"); !strings.Contains(e.Error, "too many sessions") {
		t.Errorf("sessions cap: got %q", e.Error)
	}
}

func TestARefreshedPageResumesItsSession(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	a, _, _ := dial(t, url, "")
	id := a.hello("").Session
	a.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	a.next("state")
	a.send(map[string]any{"op": "step", "n": 3})
	a.next("state")
	a.ws.Close()
	b, _, _ := dial(t, url, "")
	w := b.hello(id)
	if w.Session != id || !w.Loaded {
		t.Fatalf("resume: expected session %s with a run loaded, got %s loaded=%v", id, w.Session, w.Loaded)
	}
	s := b.next("state")
	if s.Snap.Step != 3 || *s.From != 0 {
		t.Errorf("resume: expected the whole log at step 3, got step %d from %d", s.Snap.Step, *s.From)
	}
}

func TestShareReplaysTheSameLog(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	a, _, _ := dial(t, url, "")
	a.hello("")
	a.send(map[string]any{"op": "load", "scenario": "no-lock-oversell"})
	a.next("state")
	a.send(map[string]any{"op": "step-client", "client": "B"})
	a.next("state")
	a.send(map[string]any{"op": "step", "n": 6})
	s := a.next("state")
	b, _, _ := dial(t, url, "")
	b.hello("")
	b.send(map[string]any{"op": "load", "scenario": "no-lock-oversell", "seed": s.Snap.Seed, "actions": s.Snap.Actions, "step": s.Snap.Step})
	r := b.next("state")
	a.send(map[string]any{"op": "sync"})
	full := a.next("state")
	got, _ := json.Marshal(r.Events)
	want, _ := json.Marshal(full.Events)
	if string(got) != string(want) {
		t.Errorf("share: expected the replayed log to equal the original\nwant %s\ngot  %s", want, got)
	}
}

func TestCloseSays1001(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	app.Close()
	_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
				t.Errorf("shutdown: expected close 1001, got %v", err)
			}
			return
		}
	}
}

func TestASlowClientIsDropped(t *testing.T) {
	c := newConn(nil, 2)
	for i := 0; i < 3; i++ {
		c.enqueue(&Message{Type: "state"})
	}
	select {
	case <-c.done:
		if c.closeCode != websocket.ClosePolicyViolation {
			t.Errorf("expected close code %d, got %d", websocket.ClosePolicyViolation, c.closeCode)
		}
	case <-time.After(time.Second):
		t.Fatal("a full send queue should drop the connection, not wait")
	}
}

// An error the page must say in its own language carries a code and its
// arguments beside the English text; a scenario file's errors carry yaml.
func TestErrorsCarryCodes(t *testing.T) {
	m := errorMessage(3, coded("no-move", map[string]any{"client": "A"}, "%s has no move to make now", "A"))
	if m.Re != 3 || m.Code != "no-move" || m.Args["client"] != "A" || m.Error != "A has no move to make now" {
		t.Errorf("coded error: expected re 3, code no-move, client A and the English text, got %+v", m)
	}
	m = errorMessage(4, lineErrors{{Line: 6, Col: 5, Msg: "unknown field"}})
	if m.Code != "yaml" || len(m.Errors) != 1 || m.Errors[0].Line != 6 {
		t.Errorf("file errors: expected code yaml with the line errors, got %+v", m)
	}
	m = errorMessage(5, errors.New("plain"))
	if m.Code != "error" || m.Error != "plain" || m.Args["detail"].(sim.Text).En != "plain" {
		t.Errorf("plain error: expected code error with its words as detail, got %+v", m)
	}
}
