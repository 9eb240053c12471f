package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/netip"
	"strings"
	"sync"
	"time"

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

	mu       sync.Mutex
	teacher  *session
	away     *time.Timer // the teacher's socket is gone: the room ends when it fires
	awaySet  bool
	pos      *position // the teacher's run, as students replay it
	posVer   int
	infoVer  int             // bumped on every change of what everyone's class message shows
	countVer int             // bumped on every change of the teacher's counts
	view     json.RawMessage // the teacher's view choices (time view, selected row, code tab, side by side)
	hide     bool            // hide what gives the answer away (expected verdict, chapters ahead)
	members  map[string]*member
	names    map[string]*member // by folded nickname
	browsers map[string]*member // by the page's id for its browser: one membership each (classJoin)
	question *question
	asked    int                 // questions asked so far (ids count from 1)
	history  []*question         // every question asked, for the teacher's tally and CSV
	ended    string              // why the room ended ("" while it lives)
	frameVer int                 // the position the shared state messages show
	frames   map[frameKey][]byte // the state messages students at that position get (sharedPush)
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

// classTable is the server's rooms by join code, and the limiter of join
// attempts.
type classTable struct {
	mu     sync.Mutex
	rooms  map[string]*room
	misses limiter // failed joins and teacher claims, by address
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

// openRoom makes a room driven by teacher and returns it with the
// teacher's key (given once, never kept).
func (s *Server) openRoom(teacher *session) (*room, string, error) {
	t := &s.classes
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rooms == nil {
		t.rooms = map[string]*room{}
	}
	if len(t.rooms) >= s.limits.MaxRooms {
		return nil, "", coded("rooms-cap", map[string]any{"max": s.limits.MaxRooms}, "too many classes on this server (the cap is %d): try again later", s.limits.MaxRooms)
	}
	code := newJoinCode()
	for t.rooms[code] != nil {
		code = newJoinCode()
	}
	key := newKey(16)
	r := &room{code: code, keyHash: sha256.Sum256([]byte(key)), srv: s, teacher: teacher,
		members: map[string]*member{}, names: map[string]*member{}, browsers: map[string]*member{}}
	t.rooms[code] = r
	return r, key, nil
}

// findRoom looks a room up by code for addr, counting a miss against the
// address's budget of failed attempts.
func (s *Server) findRoom(code, addr string) (*room, error) {
	t := &s.classes
	if wait := t.misses.wait(addr); wait > 0 {
		return nil, coded("class-slow-down", map[string]any{"seconds": int(wait.Seconds() + 1)}, "too many wrong codes from your address: try again in %d s", int(wait.Seconds()+1))
	}
	c := normCode(code)
	t.mu.Lock()
	r := t.rooms[c]
	t.mu.Unlock()
	if r == nil {
		t.misses.miss(addr)
		return nil, coded("no-class", map[string]any{"code": short(code)}, "no class has the code %q: check it on the projector", short(code))
	}
	return r, nil
}

// checkKey reports whether key is the room's teacher key, in constant time.
func (r *room) checkKey(key string) bool {
	h := sha256.Sum256([]byte(key))
	return subtle.ConstantTimeCompare(h[:], r.keyHash[:]) == 1
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
	}
	t.mu.Unlock()
	for _, s := range sessions {
		s.poke()
	}
}

// teacherAway starts the room's grace: it ends unless the teacher is back
// within Limits.ClassGrace.
func (r *room) teacherAway() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" || r.awaySet {
		return
	}
	r.awaySet = true
	r.infoVer++
	r.away = time.AfterFunc(r.srv.limits.ClassGrace, func() { r.end("teacher-gone") })
	r.pokeMembersLocked()
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
		c.Answered = q.answered
	}
	return c
}

// limiter counts failed attempts by address in a token bucket: missBurst
// misses at once, then one every missEvery. A classroom behind one address
// (a school's NAT) mistyping a code now and then stays well within it; a
// script guessing codes gets one guess a second, about 28 years to find
// one live class among a hundred.
//
// An IPv6 address counts by its /64 network, which one host can fill with
// addresses of its own. When the limiter remembers its most addresses
// (missAddrs, after dropping those whose buckets are full again), every
// address it does not know shares one bucket: a flood of addresses then
// guesses as slowly as one address, never faster.
type limiter struct {
	mu     sync.Mutex
	m      map[string]*bucket
	max    int       // addresses remembered at most (0: missAddrs)
	tidied time.Time // the last tidy: at most one a second, each a walk of the whole table
}

type bucket struct {
	tokens float64
	at     time.Time
}

const (
	missBurst = 60
	missEvery = time.Second
	missAddrs = 100000 // addresses remembered at most; beyond, they share overflowKey's bucket
	// overflowKey is the bucket of every address the full limiter does not know.
	overflowKey = "*"
)

// limitKey is the key addr is counted under: an IPv4 address itself, an
// IPv6 address's /64 network.
func limitKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if !a.Is6() {
		return a.String()
	}
	p, err := a.Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// wait is how long addr must wait before its next attempt (0: now).
func (l *limiter) wait(addr string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refill(l.key(addr))
	if b == nil || b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) * float64(missEvery))
}

// miss spends one of addr's attempts.
func (l *limiter) miss(addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m[limitKey(addr)] == nil && len(l.m) >= l.most() {
		l.tidy()
	}
	k := l.key(addr)
	b := l.refill(k)
	if b == nil {
		if l.m == nil {
			l.m = map[string]*bucket{}
		}
		b = &bucket{tokens: missBurst, at: time.Now()}
		l.m[k] = b
	}
	b.tokens--
}

// key is the bucket addr spends from: its own, or, when the limiter is
// full and does not know it, the shared overflow bucket. (The overflow
// bucket itself may take the table one past its most.)
func (l *limiter) key(addr string) string {
	k := limitKey(addr)
	if l.m[k] == nil && len(l.m) >= l.most() {
		return overflowKey
	}
	return k
}

// tidy drops the buckets that have filled up again: their addresses have
// nothing left to answer for. It walks the table at most once a second, so
// that a flood of new addresses against a full table costs no more than a
// lookup each.
func (l *limiter) tidy() {
	now := time.Now()
	if now.Sub(l.tidied) < time.Second {
		return
	}
	l.tidied = now
	for k, x := range l.m {
		if x.tokens+now.Sub(x.at).Seconds()/missEvery.Seconds() >= missBurst {
			delete(l.m, k)
		}
	}
}

func (l *limiter) most() int {
	if l.max > 0 {
		return l.max
	}
	return missAddrs
}

// refill tops key's bucket up for the time since it was last used.
func (l *limiter) refill(key string) *bucket {
	b := l.m[key]
	if b == nil {
		return nil
	}
	now := time.Now()
	b.tokens = min(missBurst, b.tokens+now.Sub(b.at).Seconds()/missEvery.Seconds())
	b.at = now
	return b
}

// newToken makes a member's token.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
