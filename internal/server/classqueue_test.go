package server

import (
	"fmt"
	"testing"
)

// steps lists a queue's steps.
func steps(q []queuedView) string {
	out := ""
	for _, v := range q {
		out += fmt.Sprintf("%d:%s ", v.Step, v.Kind)
	}
	return out
}

// The questions queued are the room's, not the teacher's page's: a
// teacher whose page comes back on another session with the key, or on the
// same session after its socket dropped, finds the queue, the remote sees
// what either page queued, and the question is asked at its step by the
// page that teaches then. (Before, the queue lived in the first teacher's
// session: the laptop that took the class over found it empty, and so did
// the remote.)
func TestTheQueueIsTheRooms(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, key := startClass(t, url, "no-lock-oversell")
	ann := join(t, url, code, "Ann")
	if m := teacher.ask(map[string]any{"op": "class-queue", "step": 3, "ask": map[string]any{"kind": "holder"}}); m.Type != "queue" || steps(m.Queue) != "3:holder " {
		t.Fatalf("class-queue: got %s %s %+v", m.Type, m.Error, m.Queue)
	}
	remote := newPupil(t, url)
	if m := remote.ask(map[string]any{"op": "class-remote", "code": code, "key": key}); m.Class == nil || m.Class.Role != "remote" {
		t.Fatalf("class-remote: %s %s", m.Type, m.Error)
	}
	if got := steps(remote.queue); got != "3:holder " {
		t.Fatalf("the remote shows the queue %q, want the teacher's question at step 3", got)
	}

	// The teacher's link opened on a laptop: the class moves there with
	// its queue.
	laptop := newPupil(t, url)
	if m := laptop.ask(map[string]any{"op": "class-teach", "code": code, "key": key}); m.Class == nil || m.Class.Role != "teacher" {
		t.Fatalf("class-teach: %s %s", m.Type, m.Error)
	}
	laptop.until("the room's queue on the laptop", func() bool { return steps(laptop.queue) == "3:holder " })
	if m := laptop.ask(map[string]any{"op": "class-queue", "step": 5, "ask": map[string]any{"kind": "free", "text": "Safe?", "choices": []string{"yes", "no"}}}); m.Type != "queue" || steps(m.Queue) != "3:holder 5:free " {
		t.Fatalf("class-queue on the laptop: got %s %s %+v", m.Type, m.Error, m.Queue)
	}
	remote.until("the laptop's question on the remote", func() bool { return steps(remote.queue) == "3:holder 5:free " })
	// The old page teaches no more: its requests are its own again.
	teacher.until("told it moved", func() bool { return teacher.class != nil && teacher.class.Ended == "teacher-moved" })
	teacher.refused("no-class", map[string]any{"op": "class-unqueue", "step": 3})

	// The laptop's socket drops and comes back on the same session.
	laptop.ws.Close()
	back := newPupil(t, url) // a socket of its own, then the laptop's session
	back.send(map[string]any{"op": "hello", "session": laptop.session})
	back.until("the queue on the reconnected page", func() bool { return steps(back.queue) == "3:holder 5:free " })

	// The run gets to step 3: the question is asked there, off the queue.
	for range 3 {
		back.ask(map[string]any{"op": "step"})
	}
	ann.until("the queued question at step 3", func() bool {
		return ann.class != nil && ann.class.Question != nil && ann.class.Question.Kind == "holder" && ann.class.Question.At == 3
	})
	remote.until("the queue without it", func() bool { return steps(remote.queue) == "5:free " })
	back.until("the page's queue without it", func() bool { return steps(back.queue) == "5:free " })
}

// The queue's refusals: every one coded, none of them changes the queue.
func TestTheQueueRefusesWithCodes(t *testing.T) {
	_, url := newTestServer(t, Limits{})
	teacher, code, _ := startClass(t, url, "no-lock-oversell")
	ann := join(t, url, code, "Ann")
	ann.refused("not-teacher", map[string]any{"op": "class-queue", "step": 3, "ask": map[string]any{"kind": "holder"}})
	teacher.refused("bad-argument", map[string]any{"op": "class-queue", "ask": map[string]any{"kind": "holder"}})
	teacher.refused("bad-argument", map[string]any{"op": "class-queue", "step": 3})
	long := make([]byte, 201)
	for i := range long {
		long[i] = 'x'
	}
	teacher.refused("bad-question", map[string]any{"op": "class-queue", "step": 3, "ask": map[string]any{"kind": "free", "text": string(long), "choices": []string{"a", "b"}}})
	for i := range 20 {
		if m := teacher.ask(map[string]any{"op": "class-queue", "step": 10 + i, "ask": map[string]any{"kind": "next"}}); m.Type != "queue" {
			t.Fatalf("question %d: %s %s", i+1, m.Code, m.Error)
		}
	}
	teacher.refused("queue-full", map[string]any{"op": "class-queue", "step": 100, "ask": map[string]any{"kind": "next"}})
	// A question at a step already queued replaces it: the queue stays full, not over.
	if m := teacher.ask(map[string]any{"op": "class-queue", "step": 10, "ask": map[string]any{"kind": "verdict"}}); m.Type != "queue" || len(m.Queue) != 20 || m.Queue[0].Kind != "verdict" {
		t.Fatalf("a question at a queued step: %s %s %d", m.Code, m.Error, len(m.Queue))
	}
}
