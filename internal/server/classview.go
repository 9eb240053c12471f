package server

import (
	"encoding/json"
	"slices"
	"time"
)

// The teacher's view choices (class-view): kept by the room and shown to
// the students, coalesced.

// viewEvery is how often a teacher's view choices reach the students at
// most (setView).
const viewEvery = 250 * time.Millisecond

// setView keeps the teacher's view choices for the students.
func (r *room) setView(v json.RawMessage) error {
	if len(v) > maxViewBytes {
		return badArg("class-view", "view", both("the view is at most %d bytes", "view 最多 %d 字节", maxViewBytes))
	}
	var obj map[string]any
	if json.Unmarshal(v, &obj) != nil || obj == nil {
		return badArg("class-view", "view", both("the view is a JSON object", "view 必须是一个 JSON 对象"))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.viewNext = slices.Clone(v)
	if r.viewTimer != nil {
		return nil // a publish is due: it takes the latest
	}
	wait := time.Until(r.viewAt.Add(viewEvery))
	if wait <= 0 {
		r.publishViewLocked()
		return nil
	}
	r.viewTimer = time.AfterFunc(wait, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.viewTimer = nil
		if r.ended == "" {
			r.publishViewLocked()
		}
	})
	return nil
}

// publishViewLocked shows the students the teacher's latest view choices.
// A teacher's views coalesce: one message per student every viewEvery at
// most, with the latest (a burst of them would otherwise be a burst of
// messages to every student).
func (r *room) publishViewLocked() {
	r.view, r.viewAt = r.viewNext, time.Now()
	r.infoChangedLocked()
}
