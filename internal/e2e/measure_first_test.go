package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"
)

// TestMeasureFirstLesson measures, against a server already running at
// LOCKSTEP_URL (scripts/first-lesson.sh starts one), the page's first
// lesson drawn on a cold load: the page's own lockstep-first-lesson mark,
// in ms from the navigation's start, in a fresh browser context each time
// (no cache, no storage), five times. Then a class whose teacher is a
// socket of the test's: a student's fresh page joins at step 0 and the
// teacher steps six times, then another's joins at step 6 for six more;
// for each step, the ms from the teacher's request to the student's page
// having the state, having handled it, and starting the frame that draws
// it (noted in the page, on the machine's clock). It prints one line per
// figure for the script. Skipped without LOCKSTEP_URL.
func TestMeasureFirstLesson(t *testing.T) {
	url := os.Getenv("LOCKSTEP_URL")
	if url == "" {
		t.Skip("LOCKSTEP_URL is not set: run scripts/first-lesson.sh")
	}
	chromium(t)
	b := startBrowser(t)
	for i := 0; i < 5; i++ {
		ctx := tab(t, b, true)
		do(t, ctx, "a laptop's screen", chromedp.EmulateViewport(1400, 900))
		do(t, ctx, "open a blank tab", chromedp.Navigate("about:blank")) // the tab's own start is not the page's
		do(t, ctx, "open the page", chromedp.Navigate(url))
		waitFor(t, ctx, "the first lesson drawn", `performance.getEntriesByName('lockstep-first-lesson').length > 0`)
		ms := eval[float64](t, ctx, `performance.getEntriesByName('lockstep-first-lesson')[0].startTime`)
		fmt.Printf("first-lesson %d %.0f\n", i+1, ms)
	}
	// The class: the teacher is a plain socket here (in a classroom her
	// laptop is another machine; a second page on this one would share
	// its two cores with the student's), and each student a fresh page.
	teacher := dialTeacher(t, url, "blind-del-slow-release")
	for i, from := range []int{0, 6} {
		for teacher.step < from {
			teacher.send(t, "step")
		}
		student := tab(t, b, true)
		do(t, student, "a laptop's screen", chromedp.EmulateViewport(1400, 900))
		open(t, student, url)
		joinClass(t, student, teacher.code, []string{"Ann", "Bo"}[i])
		waitFor(t, student, "at the teacher's step", fmt.Sprintf(`lockstep.state.snap.scenario === 'blind-del-slow-release' && lockstep.state.snap.step === %d`, from))
		time.Sleep(time.Second) // the join drawn, the page idle
		// The page notes, in ms since the epoch (the test's clock is the
		// machine's too), when its socket hands over a state, when the page
		// has handled it, and when the next frame starts, after the
		// timeline's drawing asked for in handling it.
		do(t, student, "note the states", chromedp.Evaluate[chromedp.Void](`(() => {
			const now = () => performance.timeOrigin + performance.now();
			const l = lockstep.link, f = l.onMessage.bind(l);
			window.__noted = [];
			l.onMessage = (m) => {
				const at = now();
				f(m);
				if (m.type !== 'state' || !m.snap) return;
				const e = { step: m.snap.step, at, handled: now() };
				requestAnimationFrame(() => { e.frame = now(); window.__noted.push(e); });
			};
		})()`))
		for n := from + 1; n <= from+6; n++ {
			sent := teacher.send(t, "step")
			waitFor(t, student, fmt.Sprintf("step %d", n), fmt.Sprintf(`window.__noted.some(e => e.step === %d)`, n))
			e := eval[map[string]float64](t, student, fmt.Sprintf(`window.__noted.find(e => e.step === %d)`, n))
			fmt.Printf("class-step %d %d %.0f %.0f %.0f\n", from, n, e["at"]-sent, e["handled"]-sent, e["frame"]-sent)
			time.Sleep(300 * time.Millisecond)
		}
		_ = chromedp.Cancel(student) // her tab closed: the next student's page has the machine
	}
}

// socketTeacher is a class's teacher on a WebSocket of her own.
type socketTeacher struct {
	ws   *websocket.Conn
	id   int
	code string
	step int
}

// dialTeacher connects, loads lesson and starts a class.
func dialTeacher(t *testing.T, url, lesson string) *socketTeacher {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(url, "http")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	te := &socketTeacher{ws: ws}
	te.ask(t, map[string]any{"op": "hello"}, "welcome")
	te.ask(t, map[string]any{"op": "load", "scenario": lesson}, "state")
	m := te.ask(t, map[string]any{"op": "class-start", "origin": url}, "class")
	var c struct {
		Class struct{ Code string } `json:"class"`
	}
	if err := json.Unmarshal(m, &c); err != nil || c.Class.Code == "" {
		t.Fatalf("class-start: %s", m)
	}
	te.code = c.Class.Code
	return te
}

// send asks for op and waits for its state; it returns when it sent the
// request, in ms since the epoch.
func (te *socketTeacher) send(t *testing.T, op string) float64 {
	t.Helper()
	at := float64(time.Now().UnixMicro()) / 1000
	te.ask(t, map[string]any{"op": op}, "state")
	te.step++
	return at
}

// ask sends m and reads messages until the answer of type typ.
func (te *socketTeacher) ask(t *testing.T, m map[string]any, typ string) []byte {
	t.Helper()
	te.id++
	m["id"] = te.id
	if err := te.ws.WriteJSON(m); err != nil {
		t.Fatal(err)
	}
	_ = te.ws.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		_, b, err := te.ws.ReadMessage()
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		var h struct {
			Type  string `json:"type"`
			Re    int    `json:"re"`
			Error string `json:"error"`
		}
		_ = json.Unmarshal(b, &h)
		if h.Type == "error" && h.Re == te.id {
			t.Fatalf("%v: %s", m, h.Error)
		}
		if h.Type == typ && (h.Re == te.id || typ == "welcome") {
			return b
		}
	}
}
