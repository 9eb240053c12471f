package server

import (
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

// push sends the attached browser the events it lacks and the snapshot.
func (s *session) push(re int) {
	if s.conn != nil && s.ls == nil && s.shown != nil {
		s.sharedPush(re, s.shown)
		return
	}
	if s.conn != nil && s.live != nil && s.ls == nil {
		s.livePush(re)
		return
	}
	if s.conn == nil || s.ls == nil {
		return
	}
	if len(s.ls.Log())-min(s.sent, s.valid) > sliceSteps {
		if !s.longPush(re) {
			return // the session ended: nobody reads it
		}
	} else {
		s.conn.enqueue(s.stateMessage(re, true))
	}
	s.sent, s.valid = len(s.ls.Log()), len(s.ls.Log())
	s.classPublish()
	s.remoteNotify()
}

// stateMessage is the state message for the browser that holds s.sent
// events: the events it lacks and the snapshot. What a browser keeps
// between state messages travels only when it changes: the loaded file's
// scenario list and the lesson's chapters only when the browser starts
// over (from 0: a load, reset, new tab or sync); the recorded actions,
// with incremental set, as the ones after those the browser holds
// (actionsFrom), else whole.
func (s *session) stateMessage(re int, incremental bool) *Message {
	m, tail := s.stateHead(re, incremental)
	for _, e := range tail {
		m.Events = append(m.Events, s.wireOf(e))
	}
	return m
}

// stateHead is stateMessage without its events: the events it is to carry
// are the tail it returns.
func (s *session) stateHead(re int, incremental bool) (*Message, []*sim.Event) {
	log := s.ls.Log()
	from := min(s.sent, s.valid, len(log))
	snap := s.snapshot()
	if from > 0 {
		snap.File, snap.Chapters = nil, nil
	}
	cur := s.ls.Actions()
	if incremental && from > 0 {
		p := 0
		for p < len(s.acts) && p < len(cur) && s.acts[p] == cur[p] {
			p++
		}
		snap.Actions, snap.ActionsFrom = append([]scenario.Action{}, cur[p:]...), &p
		s.acts = append(s.acts[:p], cur[p:]...)
	} else {
		s.acts = append(s.acts[:0], cur...)
	}
	evs := make([]wireEvent, 0, len(log)-from)
	return &Message{Type: "state", Re: re, From: &from, Events: evs, Snap: snap}, log[from:]
}

// partEvents is the most events one part of a long state carries: its
// JSON about half a megabyte with Redlock's five nodes.
const partEvents = 1024

// longPush sends the state of more than sliceSteps events (after a seek, a
// load, a step of many, a new tab: up to hundreds of thousands of events,
// megabytes of JSON) as long work, in parts of at most partEvents events:
// each part's events built in slices of sliceSteps on a bulk slot, as the
// seek that made them ran, its JSON encoded on one and queued before the
// next part is built. The parts before the last carry More and no
// snapshot; the last, the snapshot (docs/protocol.md). Built and encoded in
// one message, twenty seeks' states of 50,000 events each were megabytes
// of JSON at once, past the collector's soft limit, and the collector's
// assists gave other sessions' steps their tail (issue 36). It stops,
// false, when the session ends. The snapshot is made as for any state,
// before: it takes slots of its own (a lesson's chapters), and a bulk slot
// is not taken twice.
func (s *session) longPush(re int) bool {
	m, tail := s.stateHead(re, true) // its snapshot takes its own slots (a lesson's chapters)
	from, snap := *m.From, m.Snap
	for at := 0; at < len(tail); {
		n := min(partEvents, len(tail)-at)
		part := &Message{Type: "state", Re: re, From: new(int), Events: make([]wireEvent, 0, n)}
		*part.From = from + at
		if at+n < len(tail) {
			part.More = true
		} else {
			part.Snap = snap
		}
		evs := tail[at : at+n]
		for len(part.Events) < n {
			if !s.hold.bulkTurnUnless(s.quit, func() {
				start := time.Now()
				for k := 0; len(part.Events) < n; k++ {
					if k >= sliceSteps || time.Since(start) >= s.srv.slice {
						return
					}
					part.Events = append(part.Events, s.wireOf(evs[len(part.Events)]))
				}
			}) {
				return false
			}
		}
		var b []byte
		if !s.hold.bulkTurnUnless(s.quit, func() { b = encode(part) }) {
			return false
		}
		if !s.conn.enqueueWait(b, s.quit) {
			return false
		}
		at += n
	}
	return true
}

// wireOf is an event of the session's run as the protocol sends it, with
// its critical-section changes.
func (s *session) wireOf(e *sim.Event) wireEvent {
	w := toWire(e)
	if ch := s.ls.Sections(e.Seq); ch.Enter != nil || ch.Leave != nil {
		w.Sections = &ch
	}
	return w
}

func (s *session) snapshot() *Snapshot {
	v := s.ls.View()
	sc := v.Scenario
	snap := &Snapshot{
		Scenario: sc.ID, Title: sc.Title, Lesson: sc.Lesson, Custom: s.custom,
		Seed: v.Seed, Step: v.Step, T: int64(v.T), Ended: v.Ended,
		Verdicts: nonNil(v.Verdicts), Expect: nonNil(s.srv.expect(sc)), RealWhy: s.srv.realWhy(sc),
		Clients: v.Clients, Nodes: v.Nodes, Skews: v.Skews, Pending: nonNil(v.Pending),
		Actions: append([]scenario.Action{}, v.Actions...), Playing: s.playing, Speed: s.speed,
		Events: v.Events, OffScript: v.OffScript, OffScriptAt: v.OffScriptAt, Kept: v.Kept, File: s.file,
	}
	// A student whose teacher hides what gives the answer away gets neither
	// the lesson's paragraph (it tells how the run ends) nor the expected
	// verdict until the run ends.
	if s.hidSent = s.classHides(); s.hidSent && !v.Ended {
		snap.Lesson, snap.Expect = sim.Text{}, []string{}
	}
	s.teach(snap)
	return snap
}

func nonNil(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}
