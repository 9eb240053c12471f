package server

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/etcd"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/sim"
	"github.com/lockstep/lockstep/internal/zookeeper"
)

// runToRecording loads a live lesson, runs it to its end and gives its
// events, last snapshot and the recording the server sent once it ended.
func (c *client) runToRecording(id string) ([]wireEvent, *Snapshot, Message) {
	c.t.Helper()
	c.send(map[string]any{"op": "load", "scenario": id})
	c.next("state")
	c.send(map[string]any{"op": "seek", "step": 50000})
	var evs []wireEvent
	var snap *Snapshot
	var rec *Message
	_ = c.ws.SetReadDeadline(time.Now().Add(40 * time.Second))
	for snap == nil || !snap.Ended || rec == nil {
		var m Message
		if err := c.ws.ReadJSON(&m); err != nil {
			c.t.Fatalf("waiting for the run and its recording: %v", err)
		}
		switch m.Type {
		case "error":
			c.t.Fatalf("error: %s (%s)", m.Code, m.Error)
		case "state":
			evs, snap = append(evs[:*m.From], m.Events...), m.Snap
		case "live-recording":
			rec = &m
		}
	}
	return evs, snap, *rec
}

// A live run, once ended, is sent to the page as a recording a share
// link carries; a page that loads it is shown exactly that run — the
// same events with the same wall-clock stamps, the same critical
// sections, the same verdicts, where and when it ran — marked as
// recorded, not started again; reset then runs the lesson anew, marked
// as a new run, which ends at the same verdict (etcd-plain-put: A's
// plain Put after its lease ended is taken, stale-write, every run), with
// milliseconds of its own. Before this, a load with a recording opened
// the lesson unstarted: no run to see.
func TestALiveRunIsSharedAsItsRecording(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	url := liveServer(t, svc)
	sender, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	sender.hello("")
	sent, end, rec := sender.runToRecording("etcd-plain-put")
	tok := rec.Text
	if !slices.Contains(end.Verdicts, "stale-write") || tok == "" || rec.Name != "etcd-plain-put" || rec.Args["at"] != end.Live.At || end.Live.At == "" {
		t.Fatalf("the ended run should be stale-write and sent as a recording with its start, got %v, %q, %+v (at %q)", end.Verdicts, rec.Name, rec.Args, end.Live.At)
	}
	t.Logf("%d events, the recording %d bytes in a link (limit %d)", len(sent), len(tok), live.MaxLink)

	recv, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	recv.hello("")
	at := len(sent) - 5 // the sender's view: a few events before the end
	recv.send(map[string]any{"op": "load", "scenario": "etcd-plain-put", "recording": tok, "step": at})
	var m, again Message
	for m.Snap == nil || again.Type == "" {
		switch n := recv.read(); n.Type {
		case "state":
			m = n
		case "live-recording":
			again = n
		case "error":
			t.Fatalf("loading the recording: %s (%s)", n.Code, n.Error)
		}
	}
	if again.Text != tok {
		t.Error("the receiver should be able to share the recording on, as it came")
	}
	got, snap := m.Events, m.Snap
	if snap.Live == nil || !snap.Live.Recorded || snap.Live.Again || snap.Live.Server != end.Live.Server || snap.Live.At != end.Live.At {
		t.Fatalf("the receiver should be shown the recorded run, where and when it ran (%q, %s), got %+v", end.Live.Server, end.Live.At, snap.Live)
	}
	if snap.Step != at || len(got) != at || snap.Ended {
		t.Fatalf("the receiver's cursor should be the sender's, %d, got %d with %d events (ended %v)", at, snap.Step, len(got), snap.Ended)
	}
	for i := range got {
		a, b := got[i], sent[i]
		if a.Text != b.Text || a.T != b.T || a.Kind != b.Kind || (a.Sections == nil) != (b.Sections == nil) {
			t.Fatalf("event %d differs from the sender's:\n got  %+v\n want %+v", i+1, a, b)
		}
	}
	recv.send(map[string]any{"op": "seek", "step": 50000})
	m = recv.next("state")
	if !m.Snap.Ended || !slices.Equal(m.Snap.Verdicts, end.Verdicts) || m.Snap.Step != len(sent) {
		t.Fatalf("at its end the recording should give the sender's verdicts %v at %d, got %v at %d (ended %v)", end.Verdicts, len(sent), m.Snap.Verdicts, m.Snap.Step, m.Snap.Ended)
	}

	// Run it again: a new run in real time, not the recording.
	recv.send(map[string]any{"op": "reset"})
	m = recv.next("state")
	if m.Snap.Live.Recorded || !m.Snap.Live.Again || m.Snap.Live.Server != "" || m.Snap.Step != 0 {
		t.Fatalf("reset should give a new run, unstarted and marked as one, got %+v at %d", m.Snap.Live, m.Snap.Step)
	}
	recv.send(map[string]any{"op": "seek", "step": 50000})
	evs, last := recv.follow(nil, 40*time.Second, func(s *Snapshot) bool { return s.Ended })
	if !slices.Equal(last.Verdicts, end.Verdicts) || !last.Live.Again || last.Live.Recorded {
		t.Errorf("the new run should end at the recording's verdicts %v, marked as a new run, got %v (%+v)", end.Verdicts, last.Verdicts, last.Live)
	}
	t.Logf("the recording ended at %s, the new run at %s", time.Duration(sent[len(sent)-1].T), time.Duration(evs[len(evs)-1].T))
}

// A recording that is not one the lesson's run gives is refused with the
// reason, in a message the page says in both languages: verdicts that
// its events do not give (edited), a run of another lesson, text that is
// not a recording, one over the size a link carries.
func TestARecordingThatIsNotTheRunsIsRefused(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	url := liveServer(t, svc)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	_, _, rec := c.runToRecording("etcd-plain-put")
	r, err := live.Decode(rec.Text)
	if err != nil {
		t.Fatal(err)
	}
	edited := *r
	edited.Events = slices.Clone(r.Events)
	for i := range edited.Events {
		if edited.Events[i].Kind == sim.KindVerdict {
			edited.Events[i].Name = "safe" // the stale write hidden
		}
	}
	forged, err := edited.Encode()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ what, id, tok, code, says string }{
		{"edited verdicts", "etcd-plain-put", forged, "live-recording-bad", "verdicts are not those its events give"},
		{"another lesson's", "etcd-two-workers", rec.Text, "live-recording-bad", "not of etcd-two-workers"},
		{"not a recording", "etcd-plain-put", "bm90IGEgcmVjb3JkaW5n", "live-recording-bad", "does not inflate"},
		{"too big for a link", "etcd-plain-put", strings.Repeat("A", live.MaxLink+1), "live-link-big", "over the limit"},
	} {
		c.send(map[string]any{"op": "load", "scenario": tc.id, "recording": tc.tok})
		m := c.next("error")
		if m.Code != tc.code || !strings.Contains(m.Error, tc.says) {
			t.Errorf("%s: want %s saying %q, got %s: %s", tc.what, tc.code, tc.says, m.Code, m.Error)
		}
	}
}

// A ZooKeeper lesson shows the recipe's code — the clients' file is the
// recipe as compiled (zookeeper/lock.go), go-zookeeper's own lock.go
// beside it under its module's header — and a lost create's send lights
// the recipe's create. Its ended run is kept as a recording like etcd's,
// and shown again with the same events and verdict (argued: A's
// unprotected create whose reply is lost leaves an orphan at the head of
// the queue that nobody releases before the horizon: deadlock).
func TestAZooKeeperLessonShowsTheRecipeAndIsKept(t *testing.T) {
	if err := zookeeper.Available(); err != nil {
		t.Skip(err)
	}
	svc, err := zookeeper.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	_, url := liveApp(t, svc)
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	const id = "zookeeper-lost-create"
	c.send(map[string]any{"op": "load", "scenario": id})
	m := c.next("state")
	if m.Snap.Code["A"] != "zookeeper/lock.go" || m.Snap.Libs["zk"].Module != "github.com/go-zookeeper/zk" {
		t.Fatalf("the snapshot should name the recipe's file and go-zookeeper's module, got code %v libs %v", m.Snap.Code, m.Snap.Libs)
	}
	for path, want := range map[string]string{"zookeeper/lock.go": "func (m *Mutex) Lock() error {", "zk/lock.go": "func (l *Lock) Lock() error {"} {
		resp, err := http.Get(url + "/source/" + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("/source/%s: %d, want the file with %q", path, resp.StatusCode, want)
		}
	}
	evs, end, rec := c.runToRecording(id)
	sited := slices.ContainsFunc(evs, func(e wireEvent) bool {
		return e.Kind == "send" && e.Src != nil && e.Src.File == "zookeeper/lock.go" && e.Src.Line > 0
	})
	if !sited || !slices.Equal(end.Verdicts, []string{"deadlock"}) {
		t.Fatalf("the lost create's send should name the recipe's line, and the run end deadlock, got sited %v, %v", sited, end.Verdicts)
	}
	c.send(map[string]any{"op": "load", "scenario": id, "recording": rec.Text})
	m = c.next("state")
	if !m.Snap.Live.Recorded || !slices.Equal(m.Snap.Verdicts, end.Verdicts) || len(m.Events) != len(evs) || m.Snap.Live.Server != end.Live.Server {
		t.Errorf("the recording should show the run as it was: %v, %d events on %q; got %v, %d on %q (recorded %v)",
			end.Verdicts, len(evs), end.Live.Server, m.Snap.Verdicts, len(m.Events), m.Snap.Live.Server, m.Snap.Live.Recorded)
	}
}
