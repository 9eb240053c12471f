package server

// A class on a lesson in real time on a live server (etcd, ZooKeeper:
// live.go). The class shares the teacher's run, as it does an engine's:
// the teacher's session publishes the live run's log as far as the
// teacher is shown it, each event encoded once, and following students
// are sent it as it arrives (classshare.go's sharedPush). What needs the
// engine to replay the run is refused, in words: a live run cannot be
// replayed (its clients are not the engine's to hold), so a student
// cannot take a copy of it to roam in or compare it, and the questions
// whose answer the engine finds by stepping a copy (next, reply, holder,
// verdict, move) cannot be asked of it; a free question can.

import (
	"encoding/json"
	"slices"

	"github.com/lockstep/lockstep/internal/class"
)

// classPublishLive makes the teacher's live run, as the teacher is shown
// it, the room's position.
func (s *session) classPublishLive(seat *classSeat) {
	l := s.live
	if l.sc == nil {
		l.sc = liveScenario(l.liveLesson)
	}
	events := s.shareLive(seat)
	snap := s.liveSnapshot()
	seat.room.Publish(s, &class.Position{Scenario: l.sc, Cursor: l.cursor, Playing: s.playing, Ended: snap.Ended,
		Page: pageOfRun{events: events, snap: snap, live: l.svc.Name()}})
}

// shareLive makes the teacher's shared events the live run's log up to
// its cursor, as the teacher's page holds it: the events shared of the
// same run before the cursor stay (a live log only grows); a step back
// starts a new slice without the events after it (as classShare's
// branches do), and another run (a reset, another lesson) a new one.
func (s *session) shareLive(seat *classSeat) []json.RawMessage {
	sh, l := &seat.share, s.live
	if sh.sc != l.sc {
		sh.events, sh.bytes, sh.acts, sh.seed = nil, 0, nil, 0
	}
	shown := l.events[:l.cursor]
	if len(sh.events) > len(shown) {
		for _, b := range sh.events[len(shown):] {
			sh.bytes -= int64(len(b))
		}
		sh.events = slices.Clip(sh.events[:len(shown)]) // the next append copies: older slices stay as they were
	}
	for i := len(sh.events); i < len(shown); i++ {
		w := toWire(&shown[i])
		if ch := l.run.Sections(shown[i].Seq); ch.Enter != nil || ch.Leave != nil {
			w.Sections = &ch
		}
		b, _ := json.Marshal(w) // a wireEvent always encodes
		sh.events = append(sh.events, b)
		sh.bytes += int64(len(b))
	}
	sh.sc = l.sc
	s.setShareCost(sh.bytes + int64(len(sh.events))*eventSlot)
	return sh.events
}

// liveShown is the service whose live run the session is shown as the
// class's without holding it ("" for none, or an engine's run).
func (s *session) liveShown() string {
	if s.shown == nil {
		return ""
	}
	page, _ := s.shown.Page.(pageOfRun)
	return page.live
}

// ownLive gives a session that shows a class's live run without holding
// it (a former student's, after the class) the same lesson to run on her
// own, not started: a live run cannot be copied, and her browser is sent
// the lesson from its start.
func (s *session) ownLive() {
	ll, ok := s.srv.lives[s.shown.Scenario.ID]
	s.shown, s.held, s.sent, s.valid = nil, nil, 0, 0
	if ok {
		s.live = &liveState{liveLesson: ll}
	}
}

// takeLive gives a teacher who takes a room over from another session
// (class-teach) the room's live lesson, not started: a live run cannot
// be moved to another session, and the class follows the new one.
func (s *session) takeLive(p *class.Position) {
	ll, ok := s.srv.lives[p.Scenario.ID]
	if !ok {
		return
	}
	if s.ls != nil {
		s.cancelExplore()
		s.ls.Close()
		s.ls, s.reserve = nil, 0
		_ = s.account()
	}
	s.stopLive()
	s.setPlaying(false)
	s.shown, s.held, s.sent, s.valid = nil, nil, 0, 0
	s.live = &liveState{liveLesson: ll}
}

// classLiveRefused is why op cannot be done on the class's live run, or
// nil when the run shown is not live.
func (s *session) classLiveRefused(op string) error {
	name := s.liveShown()
	if name == "" {
		return nil
	}
	return classLiveError(op, name)
}

// classLiveError is the refusal of op on a class's run in real time on a
// live server: it cannot be replayed.
func classLiveError(op, service string) error {
	return coded("class-live", map[string]any{"op": op, "service": service},
		"%s: the class's run is in real time on a live %s server, and cannot be replayed: no copy to roam in, no side by side, and only free questions", op, service)
}
