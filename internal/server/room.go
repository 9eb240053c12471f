package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/scenario"
)

// A class (docs/protocol.md, Classes): a room that a teacher's session
// drives and students' sessions follow. The room holds no world of its
// own: it holds the teacher's position (scenario, seed, recorded actions,
// cursor), and each student's session replays it on its own world (runs
// are deterministic), so a student can leave the class to roam in a
// private copy at the teacher's cursor and come back. The room keeps the
// nicknames, the answers and the tallies while it lives and nothing after.

// joinAlphabet writes join codes: no 0/O, 1/I/L, so a code read aloud or
// off a projector is typed right.
const joinAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// joinCodeLen is a join code's length: 31^6, about 887 million codes.
const joinCodeLen = 6

// room is one class.
type room struct {
	code    string
	keyHash [32]byte // sha256 of the teacher's key; the key itself is never kept
	srv     *Server
	addr    string // the limitKey of the address that opened it, whose classes it counts against

	mu        sync.Mutex
	teacher   *session
	away      *time.Timer // the teacher's socket is gone: the room ends when it fires
	awaySet   bool
	awayAt    time.Time // when the teacher's socket went
	awayGen   int       // which absence the timer is for
	pos       *position // the teacher's run, as students replay it
	posVer    int
	infoVer   int             // bumped on every change of what everyone's class message shows
	countVer  int             // bumped on every change of the teacher's counts
	view      json.RawMessage // the teacher's view choices (time view, selected row, code tab, side by side)
	viewNext  json.RawMessage // the latest of them, which view shows at most viewEvery after the last (setView)
	viewAt    time.Time       // when view was last shown
	viewTimer *time.Timer     // shows viewNext when it fires
	hide      bool            // hide what gives the answer away (expected verdict, chapters ahead)
	members   map[string]*member
	names     map[string]*member // by folded nickname
	browsers  map[string]*member // by the page's id for its browser: one membership each (classJoin)
	question  *class.Question
	asked     int                 // questions asked so far (ids count from 1)
	history   []*class.Question   // every question asked, for the teacher's tally and CSV
	ended     string              // why the room ended ("" while it lives)
	frameVer  int                 // the position the shared state messages show
	frames    map[frameKey][]byte // the state messages students at that position get (sharedPush)
}

// member is one student in a room.
type member struct {
	token   string // the member's secret: a reconnecting page rejoins with it
	name    string
	browser string // the page's id for its browser ("" when the request had none)
	sess    *session
	roam    bool // in a private copy, not following
}

// position is the teacher's run as students replay it. It is never
// changed once published.
type position struct {
	ver       int
	sc        *scenario.Scenario // shared read-only by every session that follows
	custom    bool
	file      []catalogEntry
	challenge bool
	builtin   string
	seed      int64
	actions   []scenario.Action
	cursor    int
	chapters  json.RawMessage
	playing   bool
}

// classTable is the server's rooms by join code and by the address that
// opened them, and the limiter of join attempts.
type classTable struct {
	mu     sync.Mutex
	rooms  map[string]*room
	byAddr map[string]int // rooms open, by limitKey of the opening address
	misses limiter        // failed joins and teacher claims, by address
}

// newKey makes a random secret of n bytes, base64url.
func newKey(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// newJoinCode draws a code of joinCodeLen characters from joinAlphabet,
// without modulo bias.
func newJoinCode() string {
	var out [joinCodeLen]byte
	var b [1]byte
	for i := 0; i < joinCodeLen; {
		_, _ = rand.Read(b[:])
		if int(b[0]) >= 256/len(joinAlphabet)*len(joinAlphabet) {
			continue
		}
		out[i] = joinAlphabet[int(b[0])%len(joinAlphabet)]
		i++
	}
	return string(out[:])
}

// normCode reads a code as a person types it: any case, spaces and
// dashes ignored; "" when it cannot be a code.
func normCode(s string) string {
	if len(s) > 32 {
		return ""
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '-':
		case strings.ContainsRune(joinAlphabet, r):
			b.WriteRune(r)
		default:
			return ""
		}
	}
	if b.Len() != joinCodeLen {
		return ""
	}
	return b.String()
}

// openRoom makes a room driven by teacher, whose browser is at addr, and
// returns it with the teacher's key (given once, never kept). An address
// opens at most Limits.MaxRoomsPerAddress rooms at once: one client cannot
// take every room of the server.
func (s *Server) openRoom(teacher *session, addr string) (*room, string, error) {
	t := &s.classes
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rooms == nil {
		t.rooms, t.byAddr = map[string]*room{}, map[string]int{}
	}
	if len(t.rooms) >= s.limits.MaxRooms {
		return nil, "", coded("rooms-cap", map[string]any{"max": s.limits.MaxRooms}, "too many classes on this server (the cap is %d): try again later", s.limits.MaxRooms)
	}
	at := limitKey(addr)
	if t.byAddr[at] >= s.limits.MaxRoomsPerAddress {
		return nil, "", coded("address-classes", map[string]any{"max": s.limits.MaxRoomsPerAddress},
			"your address has %d classes open, the most one address may: end one and try again", s.limits.MaxRoomsPerAddress)
	}
	code := newJoinCode()
	for t.rooms[code] != nil {
		code = newJoinCode()
	}
	key := newKey(16)
	r := &room{code: code, keyHash: sha256.Sum256([]byte(key)), srv: s, teacher: teacher, addr: at,
		members: map[string]*member{}, names: map[string]*member{}, browsers: map[string]*member{}}
	t.rooms[code] = r
	t.byAddr[at]++
	return r, key, nil
}

// findRoom looks a room up by code for a request from addr. The code is
// looked up first, and only a miss spends one of the address's attempts
// (limiter): a school behind one address, where one student guesses
// codes, still gets into its classes. A room found gets in when proves
// says the request holds its secret (a member's token, the teacher's key:
// nobody guesses those), when the address is not slowed down, or when the
// room is already on the address (its teacher or a member there). A
// slowed address's right code for a room elsewhere is answered as a miss
// is, so that a guesser past its budget cannot tell a hit from a miss.
func (s *Server) findRoom(code, addr string, proves func(*room) bool) (*room, error) {
	t := &s.classes
	c := normCode(code)
	t.mu.Lock()
	r := t.rooms[c]
	t.mu.Unlock()
	if r != nil && proves != nil && proves(r) {
		return r, nil
	}
	wait := t.misses.wait(addr)
	if r != nil && (wait == 0 || r.onAddress(addr)) {
		return r, nil
	}
	if wait > 0 {
		secs := int(wait.Seconds() + 1)
		return nil, coded("class-slow-down", map[string]any{"seconds": secs}, "too many wrong codes from your address: try again in %d s", secs)
	}
	t.misses.miss(addr)
	return nil, coded("no-class", map[string]any{"code": short(code)}, "no class has the code %q: check it on the projector", short(code))
}

// onAddress reports whether the room's teacher or one of its members made
// their session from addr's network (limitKey): the class is there.
func (r *room) onAddress(addr string) bool {
	k := limitKey(addr)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.addr == k || limitKey(r.teacher.addr) == k {
		return true
	}
	for _, m := range r.members {
		if limitKey(m.sess.addr) == k {
			return true
		}
	}
	return false
}

// checkKey reports whether key is the room's teacher key, in constant time.
func (r *room) checkKey(key string) bool {
	h := sha256.Sum256([]byte(key))
	return subtle.ConstantTimeCompare(h[:], r.keyHash[:]) == 1
}

// awayTeachers are the sessions of the teachers whose rooms wait for
// them. (Lock order: Server.mu, classTable.mu, room.mu.)
func (t *classTable) awayTeachers() map[*session]bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out map[*session]bool
	for _, r := range t.rooms {
		r.mu.Lock()
		if r.awaySet && r.ended == "" {
			if out == nil {
				out = map[*session]bool{}
			}
			out[r.teacher] = true
		}
		r.mu.Unlock()
	}
	return out
}

// isMember reports whether token is a member's of the room.
func (r *room) isMember(token string) bool {
	if token == "" {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.members[token] != nil
}

// end closes the room for why: every member and the teacher are told, the
// room is forgotten and with it every nickname, answer and tally.
func (r *room) end(why string) {
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
	sessions := []*session{r.teacher}
	for _, m := range r.members {
		sessions = append(sessions, m.sess)
	}
	// Nothing of the students is kept: their nicknames, answers, tallies.
	r.members, r.names, r.browsers, r.question, r.history, r.view = map[string]*member{}, map[string]*member{}, map[string]*member{}, nil, nil, nil
	r.mu.Unlock()
	t := &r.srv.classes
	t.mu.Lock()
	if t.rooms[r.code] == r {
		delete(t.rooms, r.code)
		if t.byAddr[r.addr]--; t.byAddr[r.addr] <= 0 {
			delete(t.byAddr, r.addr)
		}
	}
	t.mu.Unlock()
	for _, s := range sessions {
		s.poke()
	}
}

// teacherAway starts the room's grace: it ends unless the teacher is back
// within Limits.ClassGrace, or Limits.EmptyClassGrace while nobody has
// joined (a class of nobody holds no one's place: its room is free for
// others soon after its teacher's socket goes).
func (r *room) teacherAway() {
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
func (r *room) graceLocked() time.Duration {
	if len(r.members) == 0 {
		return r.srv.limits.EmptyClassGrace
	}
	return r.srv.limits.ClassGrace
}

// graceOver ends the room of the absence gen, unless the teacher is back,
// or students joined meanwhile and their grace has yet to run out.
func (r *room) graceOver(gen int) {
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
	r.end("teacher-gone")
}

// awayGrace reports whether the room waits for its away teacher.
func (r *room) awayGrace() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.awaySet && r.ended == ""
}

// teacherBack cancels the grace.
func (r *room) teacherBack() {
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

// pokeMembersLocked wakes every member's session to send what changed.
func (r *room) pokeMembersLocked() {
	for _, m := range r.members {
		m.sess.poke()
	}
}

// counts is how the class is doing, for the teacher.
func (r *room) countsLocked() *classCounts {
	c := &classCounts{Members: len(r.members)}
	for _, m := range r.members {
		if m.sess.open.Load() > 0 {
			c.Online++
		}
		if m.roam {
			c.Roaming++
		} else {
			c.Following++
		}
	}
	if q := r.question; q != nil {
		c.Answered = q.Answered()
	}
	return c
}

// newToken makes a member's token.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
