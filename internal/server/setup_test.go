package server

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
)

// yourLock is labs/your-lock.yaml: six in-house locks, each declared in
// its scenario's own locks: section.
func yourLock(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../labs/your-lock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// kinds are a card's cells by lock/column.
func kinds(w *wireSetup) map[string]string {
	out := map[string]string{}
	for _, r := range w.Rows {
		for _, c := range r.Cells {
			out[r.Lock+"/"+c.Column] = c.Kind
		}
	}
	return out
}

// Check my lock on the scenario of a file the page sends: the user's
// declared lock and two catalog locks placed in its workload, under two
// columns. Argued before it was run: the workload is three clients, A and
// B working 1500ms under a 1s lease, B and C retrying every 100ms. Under
// contention alone the lease ends while A works and B takes the key:
// plain-del (the user's) and lua-compare-delete (whose compare only
// guards the release) are ✗ mutual-exclusion. setnx-no-expiry never
// expires: B waits for A's DEL, and a pause before the release (at most
// the lease, 1s) only delays it, well inside the 8s horizon: ✓ in both
// columns, so it is what to use instead, and the only one.
func TestSetupCardOfAFile(t *testing.T) {
	_, url := cardServer(t, Options{SetupLocks: []string{"lua-compare-delete", "setnx-no-expiry"}, SetupColumns: []string{"contention", "pause-release"}})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	yaml := yourLock(t)
	c.send(map[string]any{"op": "setup", "yaml": yaml})
	if e := c.next("error"); e.Code != "setup-which" || !strings.Contains(e.Error, "your-lock-unconditional-del") {
		t.Errorf("a file of six scenarios and none named: %q %q, want setup-which listing them", e.Code, e.Error)
	}
	c.send(map[string]any{"op": "setup", "yaml": yaml, "scenario": "your-lock-unconditional-del"})
	first := c.next("setup")
	if first.Setup == nil || !first.Setup.Running || first.Setup.Scenario != "your-lock-unconditional-del" {
		t.Fatalf("first answer %+v", first.Setup)
	}
	c.send(map[string]any{"op": "setup", "yaml": yaml, "scenario": "your-lock-unconditional-del"})
	if e := c.next("error"); e.Code != "setup-running" {
		t.Errorf("a second card while one runs: %q, want setup-running", e.Code)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
	done := c.nextWithin("setup-done", 2*time.Minute).Setup
	if done == nil || done.Running || done.Error != nil || done.Done != 6 || done.Total != 6 {
		t.Fatalf("setup-done %+v (error %+v)", done, done.Error)
	}
	if len(done.Rows) != 3 || done.Rows[0].Lock != "plain-del" || !done.Rows[0].Yours || done.Rows[1].Yours {
		t.Errorf("rows %v: want the user's plain-del first, then the catalog's", rowLocks(done))
	}
	want := map[string]string{
		"plain-del/contention": "fails", "plain-del/pause-release": "fails",
		"lua-compare-delete/contention": "fails", "lua-compare-delete/pause-release": "fails",
		"setnx-no-expiry/contention": "holds", "setnx-no-expiry/pause-release": "holds",
	}
	if got := kinds(done); !mapsEqual(got, want) {
		t.Errorf("cells %v, want %v", got, want)
	}
	if len(done.Instead) != 1 || done.Instead[0].Lock != "setnx-no-expiry" || !done.Instead[0].Everywhere {
		t.Fatalf("what to use instead: %+v, want setnx-no-expiry alone", done.Instead)
	}
	// The code set side by side: plain-del's own steps as declared, and
	// setnx-no-expiry's Go.
	if y := done.Yours; y == nil || y.Algorithm != "plain-del" || len(y.Release) != 1 || !strings.Contains(y.Release[0].Text, "DEL $key") {
		t.Errorf("your code: %+v, want plain-del's declared steps", y)
	}
	if c := done.Instead[0].Code; c == nil || c.Algorithm != "setnx-no-expiry" || len(c.Acquire) == 0 || !strings.Contains(c.Acquire[0].Text, "func (l *SetNXNoExpiry) Lock(") {
		t.Errorf("setnx-no-expiry's code: %+v", c)
	}
	if !strings.Contains(done.Rows[0].Within.En, "3 clients") || !strings.Contains(done.Rows[0].Within.Zh, "3 个客户端") {
		t.Errorf("the bound beside a mark: %+v, want the user's workload", done.Rows[0].Within)
	}
	if !strings.HasPrefix(done.Markdown, "# The card for your-lock-unconditional-del · your-lock-unconditional-del 的报告卡") ||
		!strings.Contains(done.Markdown, "setnx-no-expiry") {
		t.Errorf("the card's Markdown starts %q", done.Markdown[:min(len(done.Markdown), 120)])
	}

	// A ✗ opens its counterexample as the session's run, at its end; a ✓
	// has nothing to open.
	c.send(map[string]any{"op": "setup-open", "lock": "plain-del", "column": "contention"})
	st := c.next("state")
	if st.Snap == nil || !st.Snap.Ended || !strings.HasPrefix(st.Snap.Scenario, "mine-your-lock-unconditional-del-plain-del-contention") ||
		!contains(st.Snap.Verdicts, "mutual-exclusion") {
		t.Errorf("the opened ✗: %+v", st.Snap)
	}
	c.send(map[string]any{"op": "setup-open", "lock": "setnx-no-expiry", "column": "contention"})
	if e := c.next("error"); e.Code != "setup-cell" {
		t.Errorf("a ✓ with nothing to open: %q %q", e.Code, e.Error)
	}
}

// A card whose time budget runs out says so: the cells it stopped are ?,
// and no lock is proposed from a row with a ? (report.Instead's rule). A
// card cancelled says so too.
func TestSetupCardBudgetAndCancel(t *testing.T) {
	_, url := cardServer(t, Options{SetupTime: time.Millisecond})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	c.send(map[string]any{"op": "setup"})
	c.next("setup")
	done := c.nextWithin("setup-done", time.Minute).Setup
	if done.Error == nil || done.Error.Code != "setup-time" || done.Unsearched == nil {
		t.Fatalf("a card past its budget: error %+v, unsearched %v", done.Error, done.Unsearched)
	}
	unsearched := 0
	for _, k := range kinds(done) {
		if k == "unsearched" {
			unsearched++
		}
	}
	if unsearched == 0 || unsearched != done.Total-done.Done || len(done.Instead) != 0 {
		t.Errorf("%d cells ? of %d (%d decided), %d proposed: want the stopped ones ? and none proposed", unsearched, done.Total, done.Done, len(done.Instead))
	}

	_, url = cardServer(t, Options{})
	c, _, err = dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	c.send(map[string]any{"op": "setup"})
	c.next("setup")
	c.send(map[string]any{"op": "setup-cancel"})
	done = c.nextWithin("setup-done", time.Minute).Setup
	if !done.Cancelled || done.Error == nil || done.Error.Code != "setup-cancelled" || done.Done == done.Total {
		t.Errorf("a cancelled card: cancelled %v, error %+v, %d of %d", done.Cancelled, done.Error, done.Done, done.Total)
	}
}

func rowLocks(w *wireSetup) []string {
	var out []string
	for _, r := range w.Rows {
		out = append(out, r.Lock)
	}
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A card counts in the server's memory while it runs (setupNeed: a
// cell's world and the states its search keeps, per worker) and gives it
// back at its end; a server with no room for it refuses it, and counts
// nothing for it.
func TestSetupCardMemory(t *testing.T) {
	app, url := cardServer(t, Options{SetupTime: time.Millisecond})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	before := app.total.Load()
	c.send(map[string]any{"op": "setup"})
	c.next("setup")
	if during := app.total.Load(); during < before+setupNeed(catalogScenario(t, "blind-del-slow-release"), bulkSlots()) {
		t.Errorf("while the card runs the server counts %d bytes, %d before it: want its need on top", during, before)
	}
	c.nextWithin("setup-done", time.Minute)
	waitUntil(t, func() bool { return app.total.Load() == before }, "the card's memory given back")

	app, url = cardServer(t, Options{Limits: Limits{MaxMemory: 2 << 20}}) // a lesson fits (about 0.5 MiB), a card (about 2 MiB) does not beside it
	c, _, err = dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "blind-del-slow-release"})
	c.next("state")
	before = app.total.Load()
	c.send(map[string]any{"op": "setup"})
	if e := c.next("error"); e.Code != "server-memory" {
		t.Errorf("a card with no room: %q %q, want server-memory", e.Code, e.Error)
	}
	if app.total.Load() != before {
		t.Errorf("a refused card left %d bytes counted", app.total.Load()-before)
	}
}

// catalogScenario is a scenario of the built-in catalog.
func catalogScenario(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Scenarios {
		if f.Scenarios[i].ID == id {
			return &f.Scenarios[i]
		}
	}
	t.Fatalf("no scenario %s", id)
	return nil
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Errorf("%s: not within 10 s", what)
}

// Check my lock from the short form: setup-form writes the scenario of a
// SET NX PX acquire and a plain DEL release pasted as commands, two
// workers, and setup searches only the column ticked. Argued before it
// was run: W1 enters at once and works 500ms under a 1s lease; a pause of
// up to the lease before its release puts its DEL at up to 1.5s, after
// the lease ended at 1s and W2, retrying every 100ms, took the key: the
// DEL removes W2's key, foreign-unlock, ✗. lua-compare-delete's release
// compares the token first and deletes nothing of W2's: ✓. One column:
// two cells in all.
func TestSetupCardOfTheForm(t *testing.T) {
	_, url := cardServer(t, Options{SetupLocks: []string{"lua-compare-delete"}})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "setup-form", "form": map[string]any{"acquire": "SET $key $token NX PX $ttl => OK", "release": "DEL $key",
		"workers": 2, "ttl": "1s", "work": "500ms", "retry": "100ms"}})
	form := c.next("setup-form").Form
	if form == nil || form.Scenario != scenario.FormID || !strings.Contains(form.YAML, "locks:") {
		t.Fatalf("setup-form answered %+v", form)
	}
	c.send(map[string]any{"op": "setup", "yaml": form.YAML, "faults": []string{"pause-release"}})
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
	done := c.nextWithin("setup-done", 2*time.Minute).Setup
	if done == nil || done.Error != nil || done.Total != 2 || len(done.Columns) != 1 {
		t.Fatalf("setup-done %+v: want 2 cells in one column", done)
	}
	want := map[string]string{"my-lock/pause-release": "fails", "lua-compare-delete/pause-release": "holds"}
	if got := kinds(done); !mapsEqual(got, want) {
		t.Errorf("cells %v, want %v", got, want)
	}
	if len(done.Instead) == 0 || done.Instead[0].Lock != "lua-compare-delete" {
		t.Errorf("instead %+v: want lua-compare-delete", done.Instead)
	}
}
