package server

import (
	"slices"
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/etcd"
)

// untilWithin is until with its own deadline: a run in real time takes
// the seconds it takes.
func (p *pupil) untilWithin(what string, d time.Duration, cond func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		_ = p.ws.SetReadDeadline(deadline)
		var m Message
		if err := p.ws.ReadJSON(&m); err != nil {
			p.t.Fatalf("waiting for %s: %v (errors: %+v)", what, err, p.errs)
		}
		p.take(m)
	}
}

// A class on an etcd lesson: the teacher opens it and plays it; a
// student follows the run's events as they arrive (before it ends, not
// only at its end), event for event the teacher's, to the same verdict,
// and steps back with the teacher through the recorded log. What needs
// the engine to replay the run is refused in words: her copy to roam in,
// her side by side, and the teacher's questions other than free ones.
// After the class she gets the lesson to run on her own.
//
// Argued first: etcd-pause-past-lease ends mutual-exclusion (A frozen 3 s
// inside against a 1 s lease; B enters), every run; the student's run is
// the teacher's, so hers ends the same.
func TestAClassFollowsALiveRun(t *testing.T) {
	svc, err := etcd.NewService("")
	if err != nil {
		t.Fatal(err)
	}
	url := liveServer(t, svc)
	teacher, code, _ := startClass(t, url, "etcd-pause-past-lease")
	ann := join(t, url, code, "Ann")
	ann.until("the live lesson", func() bool { return ann.snap != nil && ann.snap.Live != nil })
	if ann.snap.Live.Service != "etcd" || ann.snap.Scenario != "etcd-pause-past-lease" || len(ann.log) != 0 {
		t.Fatalf("the student should be shown the etcd lesson, not started: %+v, %d events", ann.snap, len(ann.log))
	}
	teacher.ask(map[string]any{"op": "seek", "step": 50000}) // To the end: the run starts
	// Ann is sent the events as they arrive: she holds some of the log
	// while the run still goes on.
	before := 0 // the fewest events she held, more than none, before the end
	ann.untilWithin("the run's end", 40*time.Second, func() bool {
		if ann.snap != nil && !ann.snap.Ended && len(ann.log) > 0 && before == 0 {
			before = len(ann.log)
		}
		return ann.snap != nil && ann.snap.Ended
	})
	teacher.untilWithin("the run's end", 40*time.Second, func() bool { return teacher.snap != nil && teacher.snap.Ended })
	if before == 0 || before >= len(ann.log) {
		t.Errorf("the student should get events before the run's end: %d of %d", before, len(ann.log))
	}
	ann.follows(teacher)
	if !slices.Equal(ann.snap.Verdicts, []string{"mutual-exclusion"}) || ann.snap.Live == nil {
		t.Errorf("the student's run should end live with the teacher's mutual-exclusion, got %v", ann.snap.Verdicts)
	}
	// Back through the recorded log, together.
	teacher.ask(map[string]any{"op": "seek", "step": 10})
	ann.follows(teacher)
	if ann.snap.Step != 10 || ann.snap.Ended {
		t.Errorf("the student should be at step 10 of the recorded log, got %d", ann.snap.Step)
	}
	// What needs a replay is refused, in a code the page words.
	ann.refused("class-following", map[string]any{"op": "step"})
	ann.refused("class-live", map[string]any{"op": "class-roam"})
	ann.refused("class-live", map[string]any{"op": "compare", "with": "lease-pause-stale-write"})
	teacher.refused("class-live", map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "holder"}})
	teacher.ask(map[string]any{"op": "class-ask", "ask": map[string]any{"kind": "free", "text": "Who holds the lock now?", "choices": []string{"A", "B", "both"}}})
	ann.until("the free question", func() bool { return ann.class != nil && ann.class.Question != nil })
	// After the class, her next move is the lesson on her own, not the
	// class's log: it starts from its beginning.
	teacher.ask(map[string]any{"op": "class-end"})
	ann.until("the end", func() bool { return ann.class.Ended == "teacher-ended" })
	if m := ann.ask(map[string]any{"op": "step"}); m.Type != "state" || m.Snap.Live == nil || m.Snap.Scenario != "etcd-pause-past-lease" || *m.From != 0 {
		t.Errorf("after the class her step should start the lesson on her own, got %s %s %+v", m.Type, m.Code, m.Snap)
	}
}
