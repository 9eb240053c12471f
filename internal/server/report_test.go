package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/report"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// reportServer is a server whose card is the SQL lock under contention
// and a crash: two cells, quick to search.
func reportServer(t *testing.T) (*Server, string) {
	return cardServer(t, Options{ReportLocks: []string{"mysql-unique-key"}, ReportColumns: []string{"contention", "crash"}})
}

// cardServer is a server of the built-in catalog with opt's card options.
func cardServer(t *testing.T, opt Options) (*Server, string) {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	opt.Catalog = f
	opt.Static = fstest.MapFS{"app.js": {Data: []byte("//")}}
	opt.Templates = fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}}
	app, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })
	return app, ts.URL
}

// The card is computed once per server, whoever asks: two sessions asking
// at once both get it, cell by cell then whole; a third asking later gets
// it at once, done. A cell's counterexample opens as the session's run at
// its end; a cell without one is an error the page can say.
func TestReportComputedOnceAndShared(t *testing.T) {
	app, url := reportServer(t)
	var cs []*client
	for range 3 {
		c, _, err := dial(t, url, "")
		if err != nil {
			t.Fatal(err)
		}
		c.hello("")
		cs = append(cs, c)
	}
	for _, c := range cs[:2] {
		c.send(map[string]any{"op": "report"})
		if m := c.next("report"); m.Report == nil || !m.Report.Running {
			t.Fatalf("first answer %+v", m.Report)
		}
	}
	for i, c := range cs[:2] {
		_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
		m := c.next("report-done")
		if m.Report == nil || m.Report.Running || m.Report.Done != 2 || m.Report.Total != 2 || len(m.Report.Rows) != 1 {
			t.Fatalf("session %d: report-done %+v", i, m.Report)
		}
		kinds := map[string]string{}
		for _, cell := range m.Report.Rows[0].Cells {
			kinds[cell.Column] = cell.Kind
		}
		// The lock's row has no expiry: a crash while holding leaves it
		// for ever; contention alone is safe.
		if kinds["crash"] != "fails" || kinds["contention"] != "holds" {
			t.Errorf("session %d: cells %v", i, kinds)
		}
	}
	cs[2].send(map[string]any{"op": "report"})
	if m := cs[2].next("report"); m.Report == nil || m.Report.Running || m.Report.Done != 2 {
		t.Errorf("asked after the card: %+v, want it done at once", m.Report)
	}
	app.card.mu.Lock()
	runs := app.card.runs
	app.card.mu.Unlock()
	if runs != 1 {
		t.Errorf("the card was computed %d times, want once", runs)
	}

	c := cs[2]
	c.send(map[string]any{"op": "report-open", "lock": "mysql-unique-key", "column": "crash"})
	st := c.next("state")
	if st.Snap == nil || st.Snap.Scenario != "card-mysql-unique-key-crash-explored" || !st.Snap.Ended || len(st.Snap.Verdicts) == 0 || st.Snap.Verdicts[0] != "deadlock" {
		t.Errorf("the opened cell: %+v", st.Snap)
	}
	c.send(map[string]any{"op": "report-open", "lock": "mysql-unique-key", "column": "contention"})
	if e := c.next("error"); e.Code != "report-cell" {
		t.Errorf("a ✓ with nothing to open: %q %q", e.Code, e.Error)
	}
	c.send(map[string]any{"op": "report-open", "lock": "mysql-unique-key"})
	if e := c.next("error"); e.Error == "" {
		t.Errorf("report-open without a column: no error")
	}
}

// Closing the server stops a card being computed, within the shutdown's
// time.
func TestCloseStopsTheCard(t *testing.T) {
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(Options{Catalog: f, Static: fstest.MapFS{}, Templates: fstest.MapFS{"index.html": {Data: []byte(`<p></p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	defer ts.Close()
	c, _, err := dial(t, ts.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "report"})
	c.next("report")
	start := time.Now()
	app.Close()
	if d := time.Since(start); d > ShutdownWait+2*time.Second {
		t.Errorf("Close took %v with a card running", d)
	}
}

// A card that stops says why with a code the page says in its language:
// its deadline, or a row or cell that failed, in English and 中文.
func TestACardThatStopsSaysWhyInBothLanguages(t *testing.T) {
	late := cardError(fmt.Errorf("report: %w", context.DeadlineExceeded))
	if late.Code != "report-deadline" || late.Args["max"] != cardTime.String() {
		t.Errorf("deadline: %+v", late)
	}
	_, _, err := report.ComputeCell(context.Background(), "no-such-lock", "pause")
	failed := cardError(err)
	d, _ := failed.Args["detail"].(sim.Text)
	if failed.Code != "report-failed" || failed.Error != `report: no algorithm "no-such-lock"` || !hasHan(d.Zh) || !strings.Contains(d.Zh, "no-such-lock") {
		t.Errorf("failed: %+v", failed)
	}
}

// A cell opened after a lesson is the cell's run only: the no-lock
// lesson's chapters do not carry over to it (the cell's scenario has no
// scripted narration, so it has none), and playing the cell's own
// schedule is not the user changing the run: no off-script note, no
// off-script cursor. The lesson is loaded at the cell's seed, so that
// nothing but the run itself tells the two apart.
func TestAnOpenedCellIsItsOwnRun(t *testing.T) {
	_, url := reportServer(t)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "report"})
	c.next("report")
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
	c.next("report-done")
	open := func() Message {
		c.send(map[string]any{"op": "report-open", "lock": "mysql-unique-key", "column": "crash"})
		return c.next("state")
	}
	seed := open().Snap.Seed

	c.send(map[string]any{"op": "load", "scenario": "no-lock-oversell", "seed": seed})
	if st := c.next("state"); len(st.Snap.Chapters) == 0 {
		t.Fatalf("the no-lock lesson at seed %d has no chapters: the test shows nothing", seed)
	}
	st := open()
	if st.Snap.Scenario != "card-mysql-unique-key-crash-explored" {
		t.Fatalf("opened %q", st.Snap.Scenario)
	}
	if len(st.Snap.Chapters) != 0 {
		t.Errorf("the opened cell lists chapters %s, want none (they are the lesson's before it)", st.Snap.Chapters)
	}
	if st.Snap.OffScript || st.Snap.OffScriptAt != 0 {
		t.Errorf("the opened cell is off its script (at %d): nobody changed it", st.Snap.OffScriptAt)
	}
	for _, e := range st.Events {
		if e.Name == "off-script" {
			t.Errorf("the opened cell's log says the user changed the run: %+v", e)
		}
	}
}

// A server given the card this build carries (docs/choosing-a-lock.json,
// as serve gives it) answers "Which lock?" with the whole card at once,
// done and marked stored, computes nothing, and opens a ✗'s
// counterexample from it: the watchdog under a pause longer than its
// lease ends with two clients inside (the watchdog lesson's verdict). A
// card that is not this build's (here: cut to one row) is not taken: the
// server computes its own, as without one.
func TestTheStoredCardAnswersAtOnce(t *testing.T) {
	app, url := cardServer(t, Options{Card: lockstep.Card})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "report"})
	m := c.next("report")
	total := len(report.Columns) * len(m.Report.Rows)
	if m.Report == nil || m.Report.Running || !m.Report.Stored || m.Report.Done != total || total < 8*17 {
		t.Fatalf("the stored card: %+v, want every cell done at once", m.Report)
	}
	var pause *wireCell
	for _, r := range m.Report.Rows {
		// Each row names its lock in words and says the bound of its ✓
		// (report.Name, report.Row.Within).
		if r.Name.En == "" || r.Name.Zh == "" || r.Name.En == r.Lock || !strings.HasPrefix(r.Within.En, "2×1") || r.WithinText.Zh == "" {
			t.Errorf("row %s: name %+v, within %+v (%+v): want words and the bound", r.Lock, r.Name, r.Within, r.WithinText)
		}
		for _, cell := range r.Cells {
			if cell.Kind == "" {
				t.Fatalf("cell %s/%s undecided in the stored card", r.Lock, cell.Column)
			}
			if r.Lock == "watchdog" && cell.Column == "pause" {
				pause = cell
			}
		}
	}
	if pause == nil || pause.Kind != "fails" || !pause.Replay {
		t.Fatalf("watchdog/pause: %+v, want ✗ with a counterexample", pause)
	}
	// The live rows (etcd, ZooKeeper) come with it: each says where and
	// when its runs ran, and each cell run is a tally of real runs, with
	// nothing to replay (no schedule controls a live server).
	if len(m.Report.Live) != 4 || m.Report.LiveLegend == nil || !strings.Contains(m.Report.LiveLegend.En, "not a search") {
		t.Fatalf("the stored card's live rows: %d, legend %+v: want etcd's two and ZooKeeper's two, said to be samples", len(m.Report.Live), m.Report.LiveLegend)
	}
	for _, r := range m.Report.Live {
		if r.Sample == nil || !strings.Contains(r.Sample.En, "real-time runs a cell") || r.Name.Zh == "" {
			t.Errorf("live row %s: sample %+v, name %+v", r.Lock, r.Sample, r.Name)
		}
		for _, cell := range r.Cells {
			ran := cell.Kind == report.Broke || cell.Kind == report.Unbroken
			if ran && (cell.Runs == 0 || cell.Replay) || !ran && cell.Kind != report.NA && cell.Kind != report.Unsearched {
				t.Errorf("live cell %s/%s: %+v, want a tally of real runs (or n/a), nothing to replay", r.Lock, cell.Column, cell)
			}
		}
	}
	app.card.mu.Lock()
	runs := app.card.runs
	app.card.mu.Unlock()
	if runs != 0 {
		t.Errorf("the server computed the card %d times beside the stored one", runs)
	}
	c.send(map[string]any{"op": "report-open", "lock": "watchdog", "column": "pause"})
	st := c.next("state")
	if st.Snap == nil || !st.Snap.Ended || len(st.Snap.Verdicts) == 0 || st.Snap.Verdicts[0] != "mutual-exclusion" {
		t.Errorf("the opened counterexample: %+v", st.Snap)
	}

	cut := strings.Replace(string(lockstep.Card), `"rows": [`, `"rows": [], "x": [`, 1)
	if _, err := report.Decode([]byte(cut)); err == nil {
		t.Fatalf("a card without rows reads as this build's")
	}
}

// A cell opens while the card is still being computed, and one not
// decided yet is an error. The card's workers write its rows' cells under
// a lock of their own, so a running card's cells are read from what its
// progress told, never from its rows (a read the race detector does not
// see here only because the session and the workers meet at the engine's
// slots).
func TestACellOpensWhileTheCardRuns(t *testing.T) {
	_, url := cardServer(t, Options{ReportLocks: []string{"mysql-unique-key"}, ReportColumns: []string{"crash", "contention", "pause"}})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	c.send(map[string]any{"op": "report"})
	if m := c.next("report"); m.Report == nil || !m.Report.Running {
		t.Fatalf("first answer %+v", m.Report)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
	var first *wireCell
	for first == nil {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			t.Fatalf("waiting for a first cell: %v", err)
		}
		if m.Type == "report-done" {
			t.Fatalf("the card ended before a cell came: %+v", m.Report)
		}
		if m.Type == "report-cell" {
			first = m.Cell
		}
	}
	c.send(map[string]any{"op": "report-open", "lock": first.Lock, "column": first.Column})
	if first.Replay {
		if st := c.next("state"); st.Snap == nil || !st.Snap.Ended {
			t.Errorf("the decided cell %s/%s did not open at its end: %+v", first.Lock, first.Column, st.Snap)
		}
	} else if e := c.next("error"); e.Code != "report-cell" {
		t.Errorf("a decided cell with nothing to open: %q %q", e.Code, e.Error)
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute))
	for {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			t.Fatalf("waiting for the card's end: %v", err)
		}
		if m.Type == "report-done" {
			if m.Report == nil || m.Report.Done != 3 {
				t.Errorf("report-done %+v", m.Report)
			}
			return
		}
	}
}
