package server

// A live run kept and shown again. A run in real time cannot be replayed
// from a schedule, so what a share link carries of one is its recorded
// log (live.Recording: the events with their wall-clock stamps and
// verdicts, when and where it ran), which the server sends the page once
// the run has ended (the message live-recording). A load with it shows
// that log, judged again by the lesson's checker, marked as recorded;
// reset then starts a new run in real time, marked as a new run
// (docs/services.md, "Recordings and share links").

import (
	"errors"
	"time"

	"github.com/lockstep/lockstep/internal/live"
)

// loadRecording makes a recording of lesson ll the session's run: ended,
// its cursor at r.Step (the end when none). A recording that does not
// decode, is of another lesson, or whose verdicts are not those its
// events give is refused.
func (s *session) loadRecording(r *Request, ll liveLesson) error {
	bad := func(err error) error {
		return coded("live-recording-bad", map[string]any{"detail": err.Error()},
			"load: the link's recorded run cannot be shown (%v); open the lesson and run it again", err)
	}
	rec, err := live.Decode(r.Recording)
	if err != nil {
		return bad(err)
	}
	if rec.Lesson != ll.lesson.ID || rec.Service != ll.svc.Name() {
		return bad(errors.New("it is a run of " + rec.Service + "'s " + rec.Lesson + ", not of " + ll.lesson.ID))
	}
	j, ok := ll.svc.(live.Judged)
	if !ok {
		return bad(errors.New(ll.svc.Name() + " cannot judge a recording again"))
	}
	var run live.Run
	s.bulkTurn(func() { run, err = live.Replay(rec, j.Checker(ll.lesson.ID)) })
	if err != nil {
		return bad(err)
	}
	s.replaceRun(nil, loadedRun{})
	s.setCost(0)
	target := len(run.Events())
	if r.Step != nil {
		target = *r.Step
	}
	s.live = &liveState{liveLesson: ll, run: run, ended: true, target: target, at: rec.At, recorded: true, token: r.Recording}
	s.liveRead()
	s.liveRecorded()
	return nil
}

// liveRecorded sends the page the ended run as a recording a share link
// carries, or, for one too long for a link, what it would take.
func (s *session) liveRecorded() {
	l := s.live
	if s.conn == nil || l == nil || l.run == nil || !l.ended || l.run.Err() != nil {
		return
	}
	m := &Message{Type: "live-recording", Name: l.lesson.ID, Args: map[string]any{"at": liveAt(l)}}
	if l.token == "" {
		tok, err := live.NewRecording(l.svc, l.lesson.ID, l.at, l.run).Encode()
		var big *live.ErrTooBig
		switch {
		case errors.As(err, &big):
			m.Args["kib"], m.Args["max"] = big.Size>>10, live.MaxLink>>10
		case err != nil:
			return
		}
		l.token = tok
	}
	m.Text = l.token
	s.conn.enqueue(m)
}

// liveAt is when the run started, as the page shows it ("" before).
func liveAt(l *liveState) string {
	if l.at.IsZero() {
		return ""
	}
	return l.at.UTC().Format(time.RFC3339)
}
