package server

// A lesson of a coordination service (internal/live: etcd) played in a
// session. It runs in real time on a live server, outside the engine: the
// session does not step it, it shows it. The viewer's moves set how far
// into the log the cursor goes; the log grows at the server's own pace,
// and the cursor follows it up to where the viewer asked
// (docs/services.md, "In the browser").

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/live"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// maxLiveRuns is how many live runs the server holds at once: each is a
// handful of goroutines, connections and proxies against one server for
// up to etcd.Horizon, not counted in the sessions' memory budget.
const maxLiveRuns = 8

// liveLesson is a service's lesson as the server offers it.
type liveLesson struct {
	svc    live.Service
	lesson live.Lesson
}

// liveState is a session's run of a service's lesson.
type liveState struct {
	liveLesson
	sc     *scenario.Scenario // the run as a class's position names it (classlive.go), once published
	run    live.Run           // nil until the viewer's first move
	events []sim.Event        // the log as last read from run
	done   <-chan struct{}    // run.Done() until it is seen closed, then nil
	slot   bool               // it holds one of the server's liveRuns slots
	ended  bool               // the run is over and its verdicts are in events
	cursor int                // the events the viewer is shown
	target int                // where the viewer asked the cursor to go (math.MaxInt: to the end)
	// Recorded runs (liverec.go): when the run started, whether it is a
	// recording shown again, whether it is a new run after one, and the
	// run as a share link carries it, once made.
	at       time.Time
	recorded bool
	again    bool
	token    string
}

// liveLessons gathers the services' lessons, by id, and their catalog
// entries; an id the catalog already has is an error.
func (s *Server) liveLessons(services []live.Service) error {
	s.lives = map[string]liveLesson{}
	for _, svc := range services {
		for _, l := range svc.Lessons() {
			if _, dup := s.find(l.ID); dup || s.lives[l.ID].svc != nil {
				return coded("error", nil, "server: lesson %s of %s has the id of another lesson", l.ID, svc.Name())
			}
			s.lives[l.ID] = liveLesson{svc: svc, lesson: l}
			e := catalogEntry{ID: l.ID, Title: l.Title, Lesson: l.Story, Expect: nonNil(l.Expect), Clients: l.Clients, Live: svc.Name()}
			if l.Needs != nil {
				e.Needs = &liveNeeds{Short: l.Needs.Short, Say: l.Needs.Say}
			}
			s.catalog = append(s.catalog, e)
		}
	}
	return nil
}

// loadLive makes a service's lesson the session's run, not started: its
// clock starts with the viewer's first move.
func (s *session) loadLive(r *Request, ll liveLesson) error {
	if r.Challenge || len(r.Actions) > 0 {
		return s.liveOnly("load", ll)
	}
	if r.Recording != "" {
		return s.loadRecording(r, ll)
	}
	s.replaceRun(nil, loadedRun{})
	s.setCost(0)
	s.live = &liveState{liveLesson: ll}
	return nil
}

// stopLive ends the session's live run, if it has one.
func (s *session) stopLive() {
	if s.live != nil && s.live.run != nil {
		s.live.run.Stop()
	}
	s.freeLiveSlot()
	s.live = nil
}

// freeLiveSlot gives back the run's slot once it has ended.
func (s *session) freeLiveSlot() {
	if s.live != nil && s.live.slot {
		s.live.slot = false
		<-s.srv.liveRuns
	}
}

// liveOnly is the error of a request a live run cannot take.
func (s *session) liveOnly(op string, ll liveLesson) error {
	name := ll.svc.Name()
	return coded("live-op", map[string]any{"op": op, "service": name},
		"%s: not on a run in real time on a live %s server (no faults, searches, recordings as scenario files or challenges)", op, name)
}

// applyLive performs a request on the session's live run.
func (s *session) applyLive(r *Request) error {
	l := s.live
	switch r.Op {
	case "step":
		return s.liveMove(l.cursor + max(r.N, 1))
	case "back":
		s.setPlaying(false)
		return s.liveMove(l.cursor - 1)
	case "seek":
		s.setPlaying(false)
		return s.liveMove(*r.Step)
	case "play":
		if r.Speed != 0 {
			s.speed = r.Speed
		}
		s.playing = true
		return s.liveMove(math.MaxInt)
	case "pause":
		s.playing = false
		l.target = l.cursor
	case "reset", "seed":
		s.setPlaying(false)
		ll, again := l.liveLesson, l.recorded || l.again
		s.stopLive()
		s.live = &liveState{liveLesson: ll, again: again}
	case "sync":
		s.sent = 0
	default:
		return s.liveOnly(r.Op, l.liveLesson)
	}
	return nil
}

// liveMove sets where the viewer wants the cursor, starting the run on
// the first move forward (its server too, on the service's first run).
func (s *session) liveMove(to int) error {
	l := s.live
	l.target = max(to, 0)
	if l.run == nil && l.target > 0 {
		select {
		case s.srv.liveRuns <- struct{}{}:
			l.slot = true
		default:
			l.target = 0
			s.playing = false
			return coded("live-busy", map[string]any{"max": maxLiveRuns, "service": l.svc.Name()},
				"%d runs on a live server are running on this server, the most it holds at once: try again in a few seconds", maxLiveRuns)
		}
		run, err := l.svc.Start(context.Background(), l.lesson.ID)
		if err != nil {
			s.freeLiveSlot()
			l.target = 0
			s.playing = false
			return liveStartError(l.svc.Name(), err)
		}
		l.run, l.done, l.at = run, run.Done(), time.Now()
	}
	s.liveRead()
	return nil
}

// liveStartError is why a service's server cannot start a run: what to
// do about it, in the page's language, when the service says so.
func liveStartError(name string, err error) error {
	var detail any = err.Error()
	if u := (*live.Unavailable)(nil); errors.As(err, &u) {
		detail = u.Say // what to do, in the page's language
	}
	return coded("live-unavailable", map[string]any{"service": name, "detail": detail},
		"the %s server cannot start here: %v; the %s lessons need one, the other lessons run as before", name, err, name)
}

// liveRead reads the run's log and moves the cursor toward the target.
func (s *session) liveRead() {
	l := s.live
	if l.run != nil {
		l.events = l.run.Events()
	}
	l.cursor = min(l.target, len(l.events))
	if l.ended && l.cursor == len(l.events) {
		s.playing = false
	}
}

// liveChanged and liveDone are what the session's goroutine waits on for
// its live run: nil channels (never ready) when there is none.
func (s *session) liveChanged() <-chan struct{} {
	if s.live == nil || s.live.run == nil {
		return nil
	}
	return s.live.run.Changed()
}

func (s *session) liveDone() <-chan struct{} {
	if s.live == nil {
		return nil
	}
	return s.live.done
}

// liveTick shows what the run logged since the last look. A session
// that has an engine's run again (a class it follows set one) ends the
// live run.
func (s *session) liveTick() {
	if s.live == nil {
		return
	}
	if s.ls != nil {
		s.stopLive()
		return
	}
	was := s.live.cursor
	s.liveRead()
	if s.live.cursor != was {
		s.push(0)
	}
}

// liveEnd takes the run's end: its verdicts are in the log; a run that
// could not play says why.
func (s *session) liveEnd() {
	l := s.live
	if l == nil || l.run == nil {
		return
	}
	if s.ls != nil {
		s.stopLive()
		return
	}
	l.done, l.ended = nil, true
	s.freeLiveSlot()
	s.liveRead()
	if err := l.run.Err(); err != nil && s.conn != nil {
		name := l.svc.Name()
		s.conn.enqueue(errorMessage(0, coded("live-failed", map[string]any{"service": name, "detail": err.Error()},
			"the run on the %s server stopped: %v", name, err)))
	}
	s.push(0)
	s.liveRecorded()
}

// livePush sends the attached browser the events it lacks and the live
// run's snapshot.
func (s *session) livePush(re int) {
	l := s.live
	shown := l.events[:l.cursor]
	from := min(s.sent, s.valid, len(shown))
	evs := make([]wireEvent, 0, len(shown)-from)
	for i := from; i < len(shown); i++ {
		w := toWire(&shown[i])
		if ch := l.run.Sections(shown[i].Seq); ch.Enter != nil || ch.Leave != nil {
			w.Sections = &ch
		}
		evs = append(evs, w)
	}
	s.sent, s.valid = len(shown), len(shown)
	s.conn.enqueue(&Message{Type: "state", Re: re, From: &from, Events: evs, Snap: s.liveSnapshot()})
	s.classPublish()
}

// liveSnapshot is the live run's state at its cursor.
func (s *session) liveSnapshot() *Snapshot {
	l := s.live
	shown := l.events[:l.cursor]
	var t time.Duration
	if len(shown) > 0 {
		t = shown[len(shown)-1].T
	}
	ended := l.ended && l.cursor == len(l.events)
	expect := l.lesson.Expect
	if ended && l.lesson.Expected != nil { // the branch the run took decides (a server pause)
		expect = l.lesson.Expected(l.events)
	}
	view := &liveView{Service: l.svc.Name(), At: liveAt(l), Recorded: l.recorded, Again: l.again}
	if l.run != nil {
		view.Server = l.run.Server()
	}
	return &Snapshot{
		Scenario: l.lesson.ID, Title: l.lesson.Title, Lesson: l.lesson.Story,
		Step: l.cursor, T: int64(t), Ended: ended, Verdicts: nonNil(verdictsIn(shown)), Expect: nonNil(expect),
		Clients: l.lesson.Clients, Nodes: liveNodes(shown, t), Pending: []string{}, Actions: []wireAction{},
		Playing: s.playing && !ended, Speed: s.speed, Events: l.cursor, Live: view,
		Code: liveCodeFiles(l), Libs: liveLibs(l),
	}
}

// liveView tells the page that a run is in real time on a live server.
type liveView struct {
	Service string `json:"service"`          // the service ("etcd")
	Server  string `json:"server,omitempty"` // where it runs, once started
	// At is when the run started (RFC 3339, UTC), once it has; Recorded,
	// that this is a recording shown again (a share link's), not a run
	// now; Again, that this is a new run after a recording (liverec.go).
	At       string `json:"at,omitempty"`
	Recorded bool   `json:"recorded,omitempty"`
	Again    bool   `json:"again,omitempty"`
}

// verdictsIn are the verdicts logged among evs.
func verdictsIn(evs []sim.Event) []string {
	var out []string
	for i := range evs {
		if evs[i].Kind == sim.KindVerdict && !slices.Contains(out, evs[i].Name) {
			out = append(out, evs[i].Name)
		}
	}
	return out
}

// liveNodes are the service's keys after evs, at time t: each key as its
// last event left it, its TTL what is left at t of the lease it was
// last seen with.
func liveNodes(evs []sim.Event, t time.Duration) []lesson.NodeView {
	var names []string
	keys := map[string][]sim.KeyState{}
	for i := range evs {
		e := &evs[i]
		if e.Node == "" || len(e.Keys) == 0 {
			continue
		}
		if !slices.Contains(names, e.Node) {
			names = append(names, e.Node)
		}
		for _, k := range e.Keys {
			ks := slices.DeleteFunc(keys[e.Node], func(o sim.KeyState) bool { return o.Key == k.Key })
			if k.Exists() {
				ks = append(ks, k)
			}
			keys[e.Node] = ks
		}
	}
	out := make([]lesson.NodeView, 0, len(names))
	for _, n := range names {
		ks := keys[n]
		for i := range ks {
			if ks[i].Expire > 0 {
				ks[i].TTL = max(ks[i].Expire-t.Milliseconds(), 0)
			}
		}
		out = append(out, lesson.NodeView{Name: n, Keys: nonNilKeys(ks)})
	}
	return out
}

func nonNilKeys(ks []sim.KeyState) []sim.KeyState {
	if ks == nil {
		return []sim.KeyState{}
	}
	return ks
}
