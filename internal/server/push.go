package server

import (
	"github.com/lockstep/lockstep/internal/scenario"
)

// push sends the attached browser the events it lacks and the snapshot.
func (s *session) push(re int) {
	if s.conn == nil || s.ls == nil || s.sharedPush(re) {
		return
	}
	m := s.stateMessage(re)
	s.sent, s.valid = len(s.ls.Log()), len(s.ls.Log())
	s.conn.enqueue(m)
	s.classPublish()
}

// stateMessage is the state message for the browser that holds s.sent
// events: the events it lacks and the snapshot.
func (s *session) stateMessage(re int) *Message {
	log := s.ls.Log()
	from := min(s.sent, s.valid, len(log))
	evs := make([]wireEvent, 0, len(log)-from)
	for _, e := range log[from:] {
		w := wireEvent{Event: e, Text: e.String()}
		if e.Fact != nil {
			note := e.Words()
			w.Note = &note
		}
		if ch := s.ls.Sections(e.Seq); ch.Enter != nil || ch.Leave != nil {
			w.Sections = &ch
		}
		evs = append(evs, w)
	}
	return &Message{Type: "state", Re: re, From: &from, Events: evs, Snap: s.snapshot()}
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
		Events: v.Events, OffScript: v.OffScript, File: s.file,
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
