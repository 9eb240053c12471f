package server

import (
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// busyYAML is a scenario with moves for tens of thousands of steps: two
// clients retrying a held lock every millisecond for ten minutes.
const busyYAML = `scenarios:
  - id: busy
    title: {en: two clients retrying}
    horizon: 10m
    clients:
      - {name: A, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 1ms}, task: none, requests: 1000, work: 1ms}
      - {name: B, algorithm: lua-compare-delete, params: {ttl: 3s, retry: 1ms}, task: none, requests: 1000, work: 1ms}
    expect: [safe]
`

// handSteps steps n clients by hand, in turn among those that can move
// (the engine's step when only an expiry is due), and returns the
// recorded actions.
func handSteps(t *testing.T, n int) []scenario.Action {
	t.Helper()
	ls := busySession(t)
	defer ls.Close()
	for i := 0; len(ls.Actions()) < n; i++ {
		p := ls.Pending()
		if len(p) == 0 { // only an expiry is due: the engine's step
			if more, err := ls.Step(); err != nil || !more {
				t.Fatalf("the run ended after %d hand steps (%v) at step %d, %s: %s", len(ls.Actions()), err, ls.Cursor(), ls.View().T, ls.Log()[len(ls.Log())-1])
			}
			continue
		}
		if _, err := ls.StepClient(p[i%len(p)]); err != nil {
			t.Fatal(err)
		}
	}
	return append([]scenario.Action(nil), ls.Actions()...)
}

// busySession is a session of busyYAML on embedded Redis, seed 0.
func busySession(t *testing.T) *lesson.Session {
	t.Helper()
	f, err := scenario.Parse("busy.yaml", []byte(busyYAML))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := lesson.NewSession(&f.Scenarios[0], lesson.Config{Seed: 0, Servers: embedded.Servers{}})
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// The app reopens everything it saves. A share link replays the most
// actions the protocol allows (10,000 hand steps: about 400 KB of JSON,
// over the old 192 KiB message limit), and the run saved as YAML, which
// used to take 43 bytes a step (4,000 steps: 170 KiB, over the 128 KiB file
// limit), writes its hand steps as runs, loads again to the same log, and
// passes the file checks.
func TestTheAppReopensWhatItSaves(t *testing.T) {
	actions := handSteps(t, scenario.MaxSchedule)
	c := openSession(t, Limits{})
	n := len(actions)
	c.send(map[string]any{"op": "load", "yaml": busyYAML, "actions": actions, "step": actions[n-1].Step + 1})
	shared := c.answer("state") // 10,000 actions replayed: 6 s under -race at load 18
	if len(shared.Snap.Actions) != n {
		t.Fatalf("the share link's run holds %d actions, want %d", len(shared.Snap.Actions), n)
	}
	c.send(map[string]any{"op": "export-yaml"})
	saved := c.answer("yaml") // the recording is written and parsed again: 2 s under -race at load 18
	t.Logf("%d hand steps: saved as %d bytes (%.1f a step)", n, len(saved.Text), float64(len(saved.Text))/float64(n))
	if len(saved.Text) > scenario.MaxFileSize {
		t.Fatalf("the saved run is %d bytes, over the file limit of %d", len(saved.Text), scenario.MaxFileSize)
	}
	if _, err := scenario.Parse("saved.yaml", []byte(saved.Text)); err != nil {
		t.Fatalf("the saved run does not pass the file checks: %v", err)
	}
	c.send(map[string]any{"op": "load", "yaml": saved.Text, "step": shared.Snap.Step})
	reopened := c.answer("state")
	// The share link's actions are the user's over a file without them:
	// its run left the script, and says so in one note. The saved file's
	// schedule is its own (it has no narration): reopened, nobody changed
	// it, and its log is the same but for that note.
	if !shared.Snap.OffScript || reopened.Snap.OffScript {
		t.Errorf("off script: the share link's %v, the reopened file's %v; want true, false", shared.Snap.OffScript, reopened.Snap.OffScript)
	}
	if reopened.Snap.Step != shared.Snap.Step || reopened.Snap.Events != shared.Snap.Events-1 || !strings.HasPrefix(saved.Text, "scenarios:") {
		t.Fatalf("reopened at step %d with %d events, want step %d with %d (the share link's but its off-script note)", reopened.Snap.Step, reopened.Snap.Events, shared.Snap.Step, shared.Snap.Events-1)
	}
}

// answer reads until the answer to the last request, a message of type
// typ, for a request whose cost is the machine's: seconds under -race,
// ten times more on a loaded machine. An error answering the request ends
// the test at once (it used to be skipped, and the test waited out its
// deadline). There is no wall-clock bound of its own: it waits until a
// minute before the test binary's -timeout (go test's, 10 minutes by
// default), so that a slow machine is not a failure and a server that
// never answers still ends the test with this message.
func (c *client) answer(typ string) Message {
	c.t.Helper()
	end := time.Now().Add(10 * time.Minute)
	if d, ok := c.t.Deadline(); ok {
		end = d.Add(-time.Minute)
	}
	for {
		_ = c.ws.SetReadDeadline(end)
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for a %s message: %v", typ, err)
		}
		c.keep(&m)
		switch {
		case m.Type == typ:
			return m
		case m.Type == "error" && m.Re == c.id:
			c.t.Fatalf("waiting for a %s message: refused: %s (%s)", typ, m.Code, m.Error)
		}
	}
}

// nextWithin is next with a longer wait, for a long request.
func (c *client) nextWithin(typ string, d time.Duration) Message {
	c.t.Helper()
	for end := time.Now().Add(d); ; {
		_ = c.ws.SetReadDeadline(end)
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

// A recording the file limit cannot hold is refused with its size, never
// written: hand steps between the engine's own steps are written one
// schedule entry each (only runs of hand steps fold), so 6,000 of them,
// each after an engine step, come to more than 128 KiB of YAML. Argued
// before the run: at about 40 bytes an entry, 6,000 entries are about
// 240 KiB.
func TestARecordingOverTheFileLimitIsRefused(t *testing.T) {
	ls := busySession(t)
	for len(ls.Actions()) < 6000 {
		if more, err := ls.Step(); err != nil || !more {
			t.Fatalf("the run ended after %d hand steps (%v)", len(ls.Actions()), err)
		}
		if p := ls.Pending(); len(p) > 0 {
			if _, err := ls.StepClient(p[len(p)-1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	actions := append([]scenario.Action(nil), ls.Actions()...)
	ls.Close()
	c := openSession(t, Limits{})
	c.send(map[string]any{"op": "load", "yaml": busyYAML, "actions": actions, "step": actions[len(actions)-1].Step + 1})
	c.answer("state")
	c.send(map[string]any{"op": "export-yaml"})
	_ = c.ws.SetReadDeadline(time.Now().Add(2 * time.Minute)) // the replay of 6,000 actions: seconds under -race
	for {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			t.Fatalf("waiting for the answer to export-yaml: %v", err)
		}
		if m.Type == "yaml" {
			t.Fatalf("a recording of %d hand steps among engine steps was written (%d bytes); want it refused over %d", len(actions), len(m.Text), scenario.MaxFileSize)
		}
		if m.Type == "error" && m.Re == c.id {
			if m.Code != "recording-big" || m.Args["max"] != float64(scenario.MaxFileSize>>10) || m.Args["kib"].(float64) <= float64(scenario.MaxFileSize>>10) {
				t.Fatalf("refused with %s %v (%s); want recording-big with its size over the limit", m.Code, m.Args, m.Error)
			}
			t.Logf("refused: %s", m.Error)
			return
		}
	}
}
