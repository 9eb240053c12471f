package check

import (
	"slices"

	"github.com/lockstep/lockstep/internal/sim"
)

// SectionChange is what one event did to who is inside a critical
// section, client by client, as the model holds it: a client is inside
// while any of its threads is inside any lock. Enter lists the clients
// who came in with the event, Leave those who went out. The browser's
// timeline draws its critical sections and their overlaps from these.
type SectionChange struct {
	Enter []string `json:"enter,omitempty"`
	Leave []string `json:"leave,omitempty"`
}

// sections records, event by event, the changes of who is inside.
type sections struct {
	inside  []string              // clients inside after the last event, in order of entry
	changes map[int]SectionChange // event seq -> its change, for the events that made one
}

// observe notes what event e did to who is inside, once the model has
// applied it. Only marks, the end of a thread and faults move anyone.
func (s *sections) observe(e *sim.Event, m *model) {
	if e.Kind != sim.KindMark && e.Kind != sim.KindDone && e.Kind != sim.KindFault {
		return
	}
	var now []string
	for _, ins := range m.inside {
		for _, in := range ins {
			if !slices.Contains(now, in.th.client) {
				now = append(now, in.th.client)
			}
		}
	}
	var ch SectionChange
	for _, c := range s.inside {
		if !slices.Contains(now, c) {
			ch.Leave = append(ch.Leave, c)
		}
	}
	for _, c := range now {
		if !slices.Contains(s.inside, c) {
			ch.Enter = append(ch.Enter, c)
		}
	}
	if ch.Enter == nil && ch.Leave == nil {
		return
	}
	slices.Sort(ch.Enter) // now comes from a map: sorted, for determinism
	s.inside = slices.DeleteFunc(s.inside, func(c string) bool { return slices.Contains(ch.Leave, c) })
	s.inside = append(s.inside, ch.Enter...)
	if s.changes == nil {
		s.changes = map[int]SectionChange{}
	}
	s.changes[e.Seq] = ch
}

// Sections is what the event numbered seq did to who is inside a critical
// section (nothing, for most events).
func (c *Checker) Sections(seq int) SectionChange { return c.sections.changes[seq] }
