package class

import (
	"encoding/json"
	"github.com/lockstep/lockstep/internal/fact"
	"slices"
	"sync"
	"time"
)

// The room as a session sees it: what its class message shows, made when
// it changed since the session last looked; and the teacher's view
// choices (class-view), kept by the room and shown to the students,
// coalesced.

// maxViewBytes caps the teacher's view choices.
const maxViewBytes = 1024

// ViewEvery is how often a teacher's view choices reach the students at
// most (SetView).
const ViewEvery = 250 * time.Millisecond

// Look is the room as one session sees it.
type Look struct {
	Code     string
	Away     bool            // the teacher's socket is gone; the room ends if they are not back soon
	View     json.RawMessage // the teacher's view choices
	Hide     bool
	Question *QuestionView   // the open or last question
	Counts   *Counts         // the teacher's
	History  []*QuestionView // the teacher's: every question asked
	Refused  *Refusal        // the teacher's: the last copy of the run refused a student for memory
}

// Refusal is a student's copy of the teacher's run that the server had no
// memory for, as the teacher is told: the student keeps following.
type Refusal struct {
	Name  string // the student's nickname
	Step  int    // the teacher's step the copy was to start at
	Max   string // the server's memory budget, as the server writes it
	Count int    // copies refused so far in the room
}

// Counts are the teacher's figures.
type Counts struct {
	Members   int // students who joined
	Online    int // of them, with a socket now
	Following int // following the teacher
	Roaming   int // in a private copy
	Answered  int // answers to the open question
}

// Seen is what a session's last look at the room showed. The zero value
// has seen nothing.
type Seen struct{ info, count int }

// Look is the room as the teacher (m nil) or the member m sees it, when
// it changed since seen (or always, with force); nil when nothing did.
func (r *Room) Look(m *Member, seen *Seen, force bool) *Look {
	r.mu.Lock()
	defer r.mu.Unlock()
	teacher := m == nil
	if !force && seen.info == r.infoVer+1 && (!teacher || seen.count == r.countVer+1) {
		return nil
	}
	seen.info, seen.count = r.infoVer+1, r.countVer+1
	l := &Look{Code: r.code, Away: r.awaySet, View: r.view, Hide: r.hide}
	if teacher {
		l.Counts = r.countsLocked()
		if f := r.refused; f != nil {
			c := *f
			l.Refused = &c
		}
		for _, q := range r.history {
			l.History = append(l.History, q.view("", true))
		}
		if q := r.question; q != nil {
			l.Question = q.view("", true)
		}
	} else if q := r.question; q != nil {
		l.Question = q.view(m.token, false)
	}
	return l
}

// Refuse tells the teacher that m's copy of the run at step was refused:
// the server's memory budget (budget) had no room for it.
func (r *Room) Refuse(m *Member, step int, budget string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 1
	if r.refused != nil {
		n += r.refused.Count
	}
	r.refused = &Refusal{Name: m.name, Step: step, Max: budget, Count: n}
	r.countChangedLocked()
}

// countsLocked is how the class is doing, for the teacher.
func (r *Room) countsLocked() *Counts {
	c := &Counts{Members: len(r.members)}
	for _, m := range r.members {
		if m.p.Online() {
			c.Online++
		}
		if m.roam {
			c.Roaming++
		} else {
			c.Following++
		}
	}
	if q := r.question; q != nil {
		c.Answered = q.answered
	}
	return c
}

// SetView keeps the teacher's view choices (a JSON object of at most
// maxViewBytes) for the students. A teacher's views coalesce: one message
// per student every ViewEvery at most, with the latest (a burst of them
// would otherwise be a burst of messages to every student).
func (r *Room) SetView(v json.RawMessage) error {
	if len(v) > maxViewBytes {
		return badArg("class-view", "view", fact.Say("class.view-is-at-most-bytes", maxViewBytes))
	}
	var obj map[string]any
	if json.Unmarshal(v, &obj) != nil || obj == nil {
		return badArg("class-view", "view", fact.Say("class.view-is-json-object"))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.viewNext = slices.Clone(v)
	if r.viewTimer != nil {
		return nil // a publish is due: it takes the latest
	}
	wait := time.Until(r.viewAt.Add(ViewEvery))
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
func (r *Room) publishViewLocked() {
	r.view, r.viewAt = r.viewNext, time.Now()
	r.infoChangedLocked()
}

// frameKey names a shared state message: the position it shows, the
// events the browser held before it, and whether it hides what gives the
// answer away.
type frameKey struct {
	ver, from, n int
	hide         bool
}

// frame is a shared state message, made once (Frame).
type frame struct {
	once sync.Once
	b    []byte
}

// maxFrames bounds the shared messages a room keeps for one position (a
// student who roamed and came back may start from anywhere).
const maxFrames = 64

// Frame is the state message for students at position ver whose browsers
// hold from of the run's n events, and whether it hides what gives the
// answer away; ok is false when the room's position is no longer ver, or
// the room ended.
// Every student who follows is sent the same run, so the message is the
// same bytes for all of them: the first to need it makes it (encode, told
// whether to hide), and the others at that place wait for it and share
// it; the room keeps at most maxFrames of them for the position.
func (r *Room) Frame(ver, from, n int, encode func(hide bool) []byte) (b []byte, hide bool, ok bool) {
	r.mu.Lock()
	k := frameKey{ver: ver, from: from, n: n, hide: r.hide && r.ended == ""}
	if r.pos == nil || r.pos.Ver != ver || r.ended != "" { // an ended room keeps nothing (End dropped its messages)
		r.mu.Unlock()
		return nil, k.hide, false
	}
	if r.frameVer != ver {
		r.dropFramesLocked(ver)
	}
	f := r.frames[k]
	if f == nil {
		f = &frame{}
		if len(r.frames) < maxFrames {
			r.frames[k] = f
		}
	}
	r.mu.Unlock()
	f.once.Do(func() {
		f.b = encode(k.hide)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.frameVer == k.ver && r.frames[k] == f {
			r.meterLocked(int64(len(f.b)))
		}
	})
	return f.b, k.hide, true
}

// MeterFrames has f told every change of the bytes the room's shared state
// messages hold (Frame): the server counts them in its memory. They are
// dropped when the position moves on and when the room ends.
func (r *Room) MeterFrames(f func(delta int64)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.meter = f
}

// dropFramesLocked forgets the shared messages kept, for those of
// position ver to come.
func (r *Room) dropFramesLocked(ver int) {
	r.meterLocked(-r.frameSize)
	r.frameVer, r.frames = ver, map[frameKey]*frame{}
}

func (r *Room) meterLocked(delta int64) {
	r.frameSize += delta
	if r.meter != nil && delta != 0 {
		r.meter(delta)
	}
}
