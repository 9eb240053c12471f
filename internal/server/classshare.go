package server

import (
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"time"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// One run per class: the teacher's session publishes its run as the page
// gets it (its events encoded once, and the snapshot a student is shown),
// and a following student's session holds no world: it sends its browser
// the published run. A student who roams gets a private copy, the one
// extra cost, counted in the budgets; one the server has no memory for is
// refused, and the teacher is told.

// classShare is the teacher's run as the class is sent it: its events,
// each encoded as the protocol's event (wireEvent) once. A published
// slice is never changed in place: a new branch of the run (a seek back
// with other actions, another lesson) starts a new one sharing the events
// the branches have in common, so that what a student's browser holds of
// an older slice is found in the newer one (sharedPrefix).
type classShare struct {
	sc     *scenario.Scenario
	seed   int64
	acts   []scenario.Action
	events []json.RawMessage
	bytes  int64 // what the events hold
}

// eventSlot is what a shared event costs besides its bytes: its place in
// the slice and its allocation's header.
const eventSlot = 48

// shareRun brings the teacher's shared events up to its run and counts
// them in the session's memory. A few new events (a step's) are encoded at
// once, as a short state is; more (a seek's, a class started at step
// 50,000: megabytes of JSON) are long work, as longPush's: encoded in
// slices of sliceSteps on a bulk slot, so that a class following a long
// seek leaves one CPU to other sessions' steps. It stops, false, when the
// session ends: nothing is published then.
func (s *session) shareRun(seat *classSeat) ([]json.RawMessage, bool) {
	sh, log := &seat.share, s.ls.Log()
	keep := 0
	if sh.sc == s.ls.Scenario() && sh.seed == s.ls.Seed() {
		keep = min(len(sh.events), len(log), lesson.EventsBefore(log, lesson.Diverge(sh.acts, s.ls.Actions())))
	}
	if keep < len(sh.events) {
		for _, b := range sh.events[keep:] {
			sh.bytes -= int64(len(b))
		}
		sh.events = slices.Clip(sh.events[:keep]) // the next append copies: older slices stay as they were
	}
	encode := func(slice bool) {
		start := time.Now()
		for k := 0; len(sh.events) < len(log); k++ {
			if slice && (k >= sliceSteps || time.Since(start) >= s.srv.slice) {
				return
			}
			b, _ := json.Marshal(s.wireOf(log[len(sh.events)])) // a wireEvent always encodes
			sh.events = append(sh.events, b)
			sh.bytes += int64(len(b))
		}
	}
	if len(log)-len(sh.events) <= sliceSteps {
		encode(false)
	}
	for len(sh.events) < len(log) {
		if !s.hold.bulkTurnUnless(s.quit, func() { encode(true) }) {
			sh.sc = nil // the events of no run: the next share starts over
			s.setShareCost(sh.bytes + int64(len(sh.events))*eventSlot)
			return nil, false
		}
	}
	sh.sc, sh.seed, sh.acts = s.ls.Scenario(), s.ls.Seed(), slices.Clone(s.ls.Actions())
	s.setShareCost(sh.bytes + int64(len(sh.events))*eventSlot)
	return sh.events, true
}

// setShareCost records what the class's shared run costs the teacher's
// session, in its count and the server's (account adds it to the world's).
func (s *session) setShareCost(c int64) {
	old := s.shareCost
	s.shareCost = c
	s.cost.Add(c - old)
	s.srv.total.Add(c - old)
}

// sharedPrefix is how many of the events a browser holds (held) start the
// run's events now: the same encoded events, since a branch keeps the
// ones it shares with the last (classShare). One kept means every one
// before it kept, so the first that differs is found by bisection.
func sharedPrefix(held, events []json.RawMessage) int {
	n := min(len(held), len(events))
	return sort.Search(n, func(i int) bool {
		a, b := held[i], events[i]
		return len(a) == 0 || len(a) != len(b) || &a[0] != &b[0]
	})
}

// followMessage is a state message of a published run: Message's fields
// of a state message, in its order, with the events already encoded.
type followMessage struct {
	Type   string            `json:"type"`
	Re     int               `json:"re,omitempty"`
	From   *int              `json:"from,omitempty"`
	Events []json.RawMessage `json:"events,omitempty"`
	Snap   *Snapshot         `json:"snap,omitempty"`
}

// sharedPush sends the browser of a session that holds no world of its
// own the published run p (a following student's, or a former student's
// until she acts on it): the events it lacks and the snapshot. Students
// at the same place get the same bytes, made once per room, position and
// starting event (the first student to need them encodes them,
// class.Room.Frame).
func (s *session) sharedPush(re int, p *class.Position) {
	page := p.Page.(pageOfRun)
	from := sharedPrefix(s.held[:min(s.sent, s.valid, len(s.held))], page.events)
	encode := func(hides bool) []byte {
		snap := *page.snap
		snap.Playing, snap.Speed = false, s.speed
		if from > 0 {
			snap.File, snap.Chapters = nil, nil
		}
		if hides && !snap.Ended {
			snap.Lesson, snap.Expect = sim.Text{}, []string{}
		}
		var b []byte
		s.bulkTurn(func() { // megabytes of JSON for a long run: long work
			b, _ = json.Marshal(followMessage{Type: "state", Re: re, From: &from, Events: page.events[from:], Snap: &snap}) // its parts always encode
		})
		return b
	}
	var b []byte
	hides, ok := s.classHides(), false
	if seat := s.seat; re == 0 && seat != nil && !seat.teacher && seat.following {
		b, hides, ok = seat.room.Frame(p.Ver, from, len(page.events), encode)
	}
	if !ok {
		b = encode(hides)
	}
	s.hidSent, s.shown = hides, p
	s.held, s.sent, s.valid = page.events, len(page.events), len(page.events)
	s.acts = append(s.acts[:0], page.snap.Actions...)
	s.conn.enqueueRaw(b)
}

// leaveRun frees the session's own world for the class's run p: of what
// its browser holds, the events p's run shares (the same lesson and seed,
// before the step their actions part at) stay.
func (s *session) leaveRun(p *class.Position) {
	page := p.Page.(pageOfRun)
	keep := 0
	if s.ls.Scenario() == p.Scenario && s.ls.Seed() == p.Seed {
		keep = min(s.sent, s.valid, len(page.events), lesson.EventsBefore(s.ls.Log(), lesson.Diverge(s.ls.Actions(), p.Actions)))
	}
	s.cancelExplore()
	s.setPlaying(false)
	s.ls.Close()
	s.ls, s.reserve = nil, 0
	_ = s.account()
	s.held, s.sent, s.valid = page.events[:keep], keep, keep
}

// roamCopy makes a student's private copy of the run she is shown, to
// roam in: counted in the budgets from its load, refused (roam-memory)
// when the server has no memory for it, and then the teacher is told.
// The session is as it was after a refusal: she keeps following.
func (s *session) roamCopy(seat *classSeat) error {
	p := s.shown
	if p == nil || s.ls != nil {
		return nil // no class run shown: her own world, if any, is her copy
	}
	if err := s.classLiveRefused("class-roam"); err != nil {
		return err
	}
	held, sent, valid := s.held, s.sent, s.valid
	err := s.admit(p.Scenario)
	if err == nil {
		err = s.followTo(p)
	}
	if err == nil {
		return nil
	}
	if s.ls != nil {
		s.ls.Close()
		s.ls = nil
	}
	s.shown, s.held, s.sent, s.valid, s.reserve = p, held, sent, valid, 0
	_ = s.account()
	var ce *codedError
	if !errors.As(err, &ce) || (ce.code != "memory-run" && ce.code != "memory-server" && ce.code != "server-memory") {
		return err
	}
	budget := s.srv.limits.MaxMemory
	if ce.code == "memory-run" {
		budget = s.srv.limits.MaxSessionMemory
	}
	seat.room.Refuse(seat.m, p.Cursor, mib(budget))
	return coded("roam-memory", map[string]any{"step": p.Cursor, "max": mib(budget)},
		"no memory for your own copy of the run at step %d (a budget of %s is in use): you keep following the class; try again later",
		p.Cursor, mib(budget))
}

// ownRun gives a session that shows a published run without holding it
// (a former student's, after the class) a world of its own at that run,
// for a request that needs one.
func (s *session) ownRun() error {
	if s.liveShown() != "" {
		s.ownLive()
		return nil
	}
	if err := s.admit(s.shown.Scenario); err != nil {
		return err
	}
	return s.followTo(s.shown)
}
