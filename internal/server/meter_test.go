package server

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lockstep/lockstep"
	"github.com/lockstep/lockstep/internal/scenario"
)

// A share link may record up to 10,000 faults at one step. Ten thousand
// clock jumps at step 0 of a five-node lesson log about 20,000 events,
// about 49 MiB as estimated: the run used to be built whole, in one piece,
// and only then found over its session's 32 MiB budget, and the session
// kept it (issue 36, finding 4). Expected now: the run is held to the
// budget between the faults (every 16), so the load is refused with
// memory-run before the run outgrows the budget by more than 16 faults'
// events, and the session keeps the run it had: the server counts no
// more than that run.
func TestAShareLinkOfManyFaultsStopsAtTheBudget(t *testing.T) {
	app, url := newTestServer(t, Limits{})
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	c.next("state")
	before := app.total.Load()
	var acts []map[string]any
	for i := range scenario.MaxSchedule {
		acts = append(acts, map[string]any{"step": 0, "do": "clock-jump", "node": fmt.Sprintf("r%d", 1+i%5), "by": "1ms"})
	}
	c.send(map[string]any{"op": "load", "scenario": "redlock-clock-jump", "actions": acts})
	m := c.nextWithin("error", time.Minute)
	if m.Code != "memory-run" {
		t.Fatalf("a share link of %d clock jumps at step 0: want memory-run, got %q %q", len(acts), m.Code, m.Error)
	}
	if !strings.Contains(m.Error, "memory budget of 32 MiB") {
		t.Errorf("the refusal should name the session's budget: %q", m.Error)
	}
	if got := app.total.Load(); got != before {
		t.Errorf("after the refusal the server counts %s, want the session's run before it, %s", mib(got), mib(before))
	}
	c.send(map[string]any{"op": "step"})
	if s := c.next("state"); s.Snap.Step != 1 || s.Snap.Scenario != "redlock-pause-in-flight" {
		t.Errorf("after the refusal: want the run it had stepped to 1, got %s at %d", s.Snap.Scenario, s.Snap.Step)
	}
}

// newMeasuringServer is newTestServer with Options.MeasureMemory: the
// server's budget counts the process's live memory above what it held
// when it was made.
func newMeasuringServer(t *testing.T, l Limits) (*Server, string) {
	t.Helper()
	f, err := scenario.ParseBuiltin("scenarios.yaml", lockstep.Scenarios)
	if err != nil {
		t.Fatal(err)
	}
	app, err := New(Options{Catalog: f, Limits: l, MeasureMemory: true,
		Static:    fstest.MapFS{"app.js": {Data: []byte("//")}},
		Templates: fstest.MapFS{"index.html": {Data: []byte(`<p>{{len .Catalog}} scenarios</p>`)}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(app.Handler())
	t.Cleanup(func() { app.Close(); ts.Close() })
	return app, ts.URL
}

// health reads /healthz as figures by name.
func health(t *testing.T, url string) map[string]int64 {
	t.Helper()
	res, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	h := map[string]int64{}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 {
			h[f[0]], _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	return h
}

// ballast is memory the sessions' estimate does not see: 96 MiB held live.
var ballast []byte

// The server's budget is enforced on what the process measures live as
// well as on the estimate. Memory the estimate does not see (here 96 MiB
// held by the test; in the field, buffers, messages in flight, an
// undercount) is counted: a server measuring, its budget 64 MiB, refuses
// a load (server-memory) while it is held, though the sessions' estimate
// is near nothing, and /healthz shows both figures; once it is released
// (and the meter has collected again) the same load goes through. Without
// measuring (Options.MeasureMemory off, as before) the load went through
// beside the 96 MiB: the budget counted the estimate only.
func TestTheServerBudgetCountsMeasuredMemory(t *testing.T) {
	app, url := newMeasuringServer(t, Limits{MaxMemory: 64 << 20})
	ballast = make([]byte, 96<<20)
	for i := range ballast {
		ballast[i] = byte(i)
	}
	runtime.GC() // the live heap is as of the last collection
	_, plainURL := newTestServer(t, Limits{MaxMemory: 64 << 20})
	plain, _, _ := dial(t, plainURL, "")
	plain.hello("")
	plain.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	if m := plain.read(); m.Type == "error" {
		t.Fatalf("a server counting the estimate only: want the load to go through beside the 96 MiB, got %q %q", m.Code, m.Error)
	}
	c, _, _ := dial(t, url, "")
	c.hello("")
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	m := c.next("error")
	if m.Code != "server-memory" {
		t.Fatalf("a load beside 96 MiB the estimate does not see, on a 64 MiB budget: want server-memory, got %q %q", m.Code, m.Error)
	}
	h := health(t, url)
	if h["memory_used"] < 96<<20 || h["memory"] > 8<<20 || h["memory_live"] < 96<<20 || h["rss"] < 96<<20 {
		t.Errorf("/healthz while 96 MiB are held: want memory (the estimate) small, memory_used, memory_live and rss at least 96 MiB, got %v", h)
	}
	ballast = nil
	time.Sleep(time.Second) // the meter collects at most once a second
	c.send(map[string]any{"op": "load", "scenario": "redlock-pause-in-flight"})
	if m := c.read(); m.Type == "error" {
		t.Fatalf("the 96 MiB released: want the load to go through, got %q %q", m.Code, m.Error)
	}
	if used := app.used(); used > 64<<20 {
		t.Errorf("the 96 MiB released: the server counts %s, over its budget", mib(used))
	}
}

// The estimate follows the live heap on the review's load (issue 36,
// finding 4: sessions seeking a long lesson, retryYAML): 12 sessions seek it to step
// 3,000, and what the server counts for them is within a fifth of what the
// heap grew by (the heap and goroutine stacks after a collection, the
// messages in flight drained first). Measured: 0.98 to 1.02. The RSS
// beyond it is garbage, which the collector's soft limit (SoftMemoryLimit)
// bounds, and what the estimate does not see is counted by the meter
// (TestTheServerBudgetCountsMeasuredMemory).
func TestTheEstimateFollowsTheLiveHeap(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's heap is not a normal build's (scripts/test.sh runs this test without it)")
	}
	app, url := newTestServer(t, Limits{})
	before := heapNow()
	var cs []*client
	for range 12 {
		c, _, _ := dial(t, url, "")
		c.hello("")
		c.send(map[string]any{"op": "load", "yaml": retryYAML})
		c.next("state")
		c.send(map[string]any{"op": "seek", "step": 3000})
		cs = append(cs, c)
	}
	for _, c := range cs {
		s := c.nextWithin("state", time.Minute)
		for s.Re != c.id {
			s = c.nextWithin("state", time.Minute)
		}
		if s.Snap.Step != 3000 {
			t.Fatalf("seek to 3,000: got to step %d", s.Snap.Step)
		}
	}
	for _, c := range cs {
		drain(c, 200*time.Millisecond)
	}
	grew, est := heapNow()-before, app.total.Load()
	r := float64(grew) / float64(est)
	t.Logf("12 sessions at step 3,000: estimate %s, the heap grew by %s (%.2f)", mib(est), mib(grew), r)
	if r < 0.8 || r > 1.2 {
		t.Errorf("the estimate %s and the heap's growth %s: ratio %.2f, want within a fifth (0.8 to 1.2)", mib(est), mib(grew), r)
	}
	runtime.KeepAlive(cs)
}
