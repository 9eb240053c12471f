package server

import (
	"context"
	"errors"
	"time"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// recordingTime is the most a recording's replay may take on the server,
// its waits for the engine's slots included.
const recordingTime = 10 * time.Second

// recording is the session as a scenario file that replays this run. It
// is one the app reopens, or an error: a file over the limits (a schedule
// of thousands of faults, say) is refused here rather than saved.
func (s *session) recording() ([]byte, error) {
	rec, err := s.replayed()
	if err != nil {
		return nil, err
	}
	var b []byte
	s.bulkTurn(func() {
		if b, err = scenario.MarshalScenario(&rec); err == nil && len(b) <= scenario.MaxFileSize {
			_, err = scenario.Parse(rec.ID+".yaml", b)
			err = unreadable(err)
		}
	})
	if err != nil {
		return nil, err
	}
	if len(b) > scenario.MaxFileSize {
		return nil, coded("recording-big", map[string]any{"kib": len(b) >> 10, "max": scenario.MaxFileSize >> 10},
			"the recording would be %d KiB, over the file limit of %d KiB: step back to an earlier step and save from there", len(b)>>10, scenario.MaxFileSize>>10)
	}
	return b, nil
}

// replayed is the session as a recording (lesson.Session.Recording), its
// replay run as long work: on a bulk slot and an engine slot for slices of
// at most sliceTime, until recordingTime or the session's end.
func (s *session) replayed() (scenario.Scenario, error) {
	ctx, cancel := s.workContext(recordingTime)
	defer cancel()
	sl := &slicer{srv: s.srv, ctx: ctx}
	defer sl.release()
	rec, err := s.ls.Recording(lesson.Config{Servers: embedded.Servers{}, Yield: func(*lesson.Run) error { return sl.yield() }})
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return rec, coded("recording-time", map[string]any{"max": int(recordingTime / time.Second)},
			"the recording's replay took more than %d s on this server (busy, or a long run): try again shortly", int(recordingTime/time.Second))
	case errors.Is(err, context.Canceled):
		return rec, coded("evicted", nil, "this session ended while saving: reload the page")
	}
	return rec, err
}

// unreadable is the error of a recording that would not parse again.
func unreadable(err error) error {
	if err == nil {
		return nil
	}
	return coded("recording-unreadable", map[string]any{"detail": err.Error()},
		"the recording would not reopen (%s): step back to an earlier step and save from there", err)
}
