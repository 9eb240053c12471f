package class

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Participant is a session in a room, as the room sees it: the teacher's
// or a member's.
type Participant interface {
	// Poke wakes the session to send its browser what changed in the
	// room; it never blocks.
	Poke()
	// Online reports whether its browser's socket is open.
	Online() bool
	// Network is the network its browser is on (Guard.Network of its
	// address).
	Network() string
}

// Room is one class.
type Room struct {
	code    string
	keyHash [32]byte // sha256 of the teacher's key; the key itself is never kept
	table   *Table
	network string // the network that opened it, whose rooms it counts against

	mu        sync.Mutex
	teacher   Participant
	away      *time.Timer // the teacher's socket is gone: the room ends when it fires
	awaySet   bool
	awayAt    time.Time // when the teacher's socket went
	awayGen   int       // which absence the timer is for
	pos       *Position // the teacher's run, as students are sent it
	posVer    int
	infoVer   int             // bumped on every change of what everyone's class message shows
	countVer  int             // bumped on every change of the teacher's counts
	view      json.RawMessage // the teacher's view choices (time view, selected row, code tab, side by side)
	viewNext  json.RawMessage // the latest of them, which view shows at most viewEvery after the last (SetView)
	viewAt    time.Time       // when view was last shown
	viewTimer *time.Timer     // shows viewNext when it fires
	hide      bool            // hide what gives the answer away (expected verdict, chapters ahead)
	members   map[string]*Member
	names     map[string]*Member // by folded nickname
	browsers  map[string]*Member // by the page's id for its browser: one membership each (Join)
	question  *Question
	asked     int                 // questions asked so far (ids count from 1)
	history   []*Question         // every question asked, for the teacher's tally and CSV
	ended     string              // why the room ended ("" while it lives)
	frameVer  int                 // the position the shared state messages show
	frames    map[frameKey]*frame // the state messages students at that position get (Frame)
	frameSize int64               // their bytes
	meter     func(delta int64)   // told every change of frameSize (MeterFrames)
	refused   *Refusal            // the last student's copy of the run refused for memory (Refuse)
	remote    remotes             // the teacher's remotes (remote.go)
	queue     queue               // questions queued for later steps (queue.go)
}

// Position is the teacher's run as students are sent it. It is never
// changed once published.
type Position struct {
	Ver       int                // its number in the room, from 1 (Publish sets it)
	Scenario  *scenario.Scenario // shared read-only by every session that follows
	Seed      int64
	Actions   []scenario.Action
	Cursor    int
	Challenge bool
	Playing   bool
	// Ended is a run in real time on a live server that has ended: its
	// log's end comes after its last event, not with a step.
	Ended bool
	Page  any // what the server carries with the run for the page (its file, chapters): the room never reads it
}

// Code is the room's join code.
func (r *Room) Code() string { return r.code }

// CheckKey reports whether key is the room's teacher key, in constant time.
func (r *Room) CheckKey(key string) bool {
	h := sha256.Sum256([]byte(key))
	return subtle.ConstantTimeCompare(h[:], r.keyHash[:]) == 1
}

// IsMember reports whether token is a member's of the room.
func (r *Room) IsMember(token string) bool {
	if token == "" {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.members[token] != nil
}

// onNetwork reports whether the room was opened from network, or its
// teacher or one of its members is on it: the class is there.
func (r *Room) onNetwork(network string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.network == network || r.teacher.Network() == network {
		return true
	}
	for _, m := range r.members {
		if m.p.Network() == network {
			return true
		}
	}
	return false
}

// Publish makes the teacher's run p the room's position, when it moved:
// every student who follows is sent it. Only the room's teacher publishes.
// A question about another lesson (another scenario: a new lesson, a
// file, the lesson's challenge) is dismissed.
func (r *Room) Publish(teacher Participant, p *Position) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.teacher != teacher || r.ended != "" {
		return
	}
	if o := r.pos; o != nil && o.Scenario == p.Scenario && o.Seed == p.Seed && o.Cursor == p.Cursor && o.Challenge == p.Challenge &&
		o.Playing == p.Playing && o.Ended == p.Ended && lesson.Diverge(o.Actions, p.Actions) < 0 {
		return
	}
	if r.question != nil && r.pos != nil && r.pos.Scenario != p.Scenario {
		r.dismissLocked() // the question goes with the lesson it was about
	}
	r.posVer++
	p.Ver = r.posVer
	r.pos = p
	for _, m := range r.members {
		if !m.roam {
			m.p.Poke()
		}
	}
}

// Position is the teacher's run as last published (nil before).
func (r *Room) Position() *Position {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos
}

// Ended is why the room ended: teacher-ended, teacher-gone; "" while it
// lives.
func (r *Room) Ended() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended
}

// Hides reports whether the room hides what gives the answer away from
// its students: while the teacher says so and the room lives.
func (r *Room) Hides() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hide && r.ended == ""
}

// SetHide says whether to hide what gives the answer away.
func (r *Room) SetHide(hide bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hide = hide
	r.infoChangedLocked()
}

// End closes the room for why: every member and the teacher are told, the
// room is forgotten and with it every nickname, answer and tally.
func (r *Room) End(why string) {
	r.mu.Lock()
	if r.ended != "" {
		r.mu.Unlock()
		return
	}
	r.ended = why
	r.infoVer++
	if r.away != nil {
		r.away.Stop()
	}
	if r.viewTimer != nil {
		r.viewTimer.Stop()
	}
	sessions := []Participant{r.teacher}
	for p := range r.remote.set {
		sessions = append(sessions, p)
	}
	r.remote = remotes{}
	r.queue = queue{ver: r.queue.ver + 1}
	for _, m := range r.members {
		sessions = append(sessions, m.p)
	}
	// Nothing of the students is kept: their nicknames, answers, tallies.
	r.members, r.names, r.browsers, r.question, r.history, r.view = map[string]*Member{}, map[string]*Member{}, map[string]*Member{}, nil, nil, nil
	r.dropFramesLocked(0)
	r.mu.Unlock()
	r.table.forget(r)
	for _, p := range sessions {
		p.Poke()
	}
}

// TeacherAway starts the room's grace: it ends unless the teacher is back
// within Limits.ClassGrace, or Limits.EmptyClassGrace while nobody has
// joined (a class of nobody holds no one's place: its room is free for
// others soon after its teacher's socket goes).
func (r *Room) TeacherAway() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" || r.awaySet {
		return
	}
	r.awaySet, r.awayAt = true, time.Now()
	r.awayGen++
	gen := r.awayGen
	r.infoVer++
	r.away = time.AfterFunc(r.graceLocked(), func() { r.graceOver(gen) })
	r.pokeMembersLocked()
}

// graceLocked is how long the room waits for its away teacher.
func (r *Room) graceLocked() time.Duration {
	if len(r.members) == 0 {
		return r.table.limits.EmptyClassGrace
	}
	return r.table.limits.ClassGrace
}

// graceOver ends the room of the absence gen, unless the teacher is back,
// or students joined meanwhile and their grace has yet to run out.
func (r *Room) graceOver(gen int) {
	r.mu.Lock()
	if r.ended != "" || !r.awaySet || r.awayGen != gen {
		r.mu.Unlock()
		return
	}
	if left := time.Until(r.awayAt.Add(r.graceLocked())); left > 0 {
		r.away = time.AfterFunc(left, func() { r.graceOver(gen) })
		r.mu.Unlock()
		return
	}
	r.mu.Unlock()
	r.End("teacher-gone")
}

// TeacherBack cancels the grace.
func (r *Room) TeacherBack() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.awaySet {
		return
	}
	r.awaySet = false
	r.away.Stop()
	r.infoVer++
	r.pokeMembersLocked()
}

// infoChangedLocked marks what everyone sees as changed and wakes every
// session in the room; countChangedLocked, what only the teacher sees.
func (r *Room) infoChangedLocked() {
	r.infoVer++
	r.teacher.Poke()
	r.pokeMembersLocked()
}

func (r *Room) countChangedLocked() {
	r.countVer++
	r.teacher.Poke()
	r.pokeRemotesLocked()
}

// pokeMembersLocked wakes every member's session, and the remotes', to
// send what changed.
func (r *Room) pokeMembersLocked() {
	for _, m := range r.members {
		m.p.Poke()
	}
	r.pokeRemotesLocked()
}
