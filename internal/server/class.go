package server

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/qr"
)

// A session's part in a class (room.go): the requests of docs/protocol.md's
// Classes section, applied on the session's goroutine, and what the
// session sends its browser when the room changes.

// classRequest are the arguments of the class requests.
type classRequest struct {
	Code     string          `json:"code,omitempty"`     // class-join, class-teach: the join code
	Key      string          `json:"key,omitempty"`      // class-teach: the teacher's key
	Name     string          `json:"name,omitempty"`     // class-join: the nickname
	Token    string          `json:"token,omitempty"`    // class-join: rejoin as this member
	Browser  string          `json:"browser,omitempty"`  // class-join: the page's id for its browser (one membership each)
	Origin   string          `json:"origin,omitempty"`   // class-start: the page's origin, for the join link
	View     json.RawMessage `json:"view,omitempty"`     // class-view: the teacher's view choices
	Hide     *bool           `json:"hide,omitempty"`     // class-hide
	Ask      *askRequest     `json:"ask,omitempty"`      // class-ask
	Question int             `json:"question,omitempty"` // class-answer: the question's id
	Choice   *int            `json:"choice,omitempty"`   // class-answer: the choice's index
}

// classOps are the class requests; classDrives, the requests that change a
// session's run, which a student following the class may not send.
var (
	classOps = []string{"class-start", "class-teach", "class-join", "class-roam", "class-follow", "class-leave",
		"class-view", "class-hide", "class-ask", "class-answer", "class-reveal", "class-play", "class-end"}
	classDrives = map[string]bool{"load": true, "step": true, "step-client": true, "back": true, "seek": true,
		"play": true, "pause": true, "inject": true, "reset": true, "seed": true, "explore": true, "explore-cancel": true}
)

func init() {
	for _, op := range classOps {
		ops[op] = true
	}
}

// Caps on what a class request may carry.
const (
	maxNameRunes = 24   // a nickname
	maxViewBytes = 1024 // the teacher's view choices
	maxOrigin    = 200  // the page's origin
	maxBrowserID = 64   // the page's id for its browser
)

// classState is what a session keeps of its class.
type classState struct {
	seat    *classSeat
	nudge   chan struct{} // the room changed: see what (poke, classTick)
	hidSent bool          // the last state message left out what gives the answer away (classHides)
}

// classSeat is a session's place in a room.
type classSeat struct {
	room      *room
	teacher   bool
	m         *member // a student's membership
	following bool
	posVer    int // the teacher's position this session's world replays (students)
	infoVer   int // what the last class message showed
	countVer  int // the counts the teacher's last class message showed
	link      string
	qr        []string
	key       string    // the teacher's key, until the answer to class-start has carried it
	switches  float64   // a student's roam/follow switches left (switchBurst, one more every switchEvery)
	switchAt  time.Time // when switches was last topped up
}

// A student may switch between roaming and following switchBurst times at
// once, then once every switchEvery: each switch replays the run for her
// and changes the teacher's counts, which a script switching in a loop
// would otherwise turn into a stream of messages to the teacher.
const (
	switchBurst = 20
	switchEvery = 500 * time.Millisecond
)

// spendSwitch takes one of the seat's switches, or says how long to wait.
func (seat *classSeat) spendSwitch(now time.Time) time.Duration {
	if seat.switchAt.IsZero() {
		seat.switches = switchBurst
	} else {
		seat.switches = min(switchBurst, seat.switches+now.Sub(seat.switchAt).Seconds()/switchEvery.Seconds())
	}
	seat.switchAt = now
	if seat.switches < 1 {
		return time.Duration((1 - seat.switches) * float64(switchEvery))
	}
	seat.switches--
	return 0
}

// classView is the class message: the room as this session sees it.
type classView struct {
	Code      string          `json:"code"`
	Role      string          `json:"role"`            // teacher or student
	Name      string          `json:"name,omitempty"`  // a student's nickname
	Token     string          `json:"token,omitempty"` // a student's token, to rejoin after losing the session
	Key       string          `json:"key,omitempty"`   // the teacher's key, only in the answer to class-start
	Link      string          `json:"link,omitempty"`  // the teacher: the join link
	QR        []string        `json:"qr,omitempty"`    // the teacher: the join link's QR code, one string of 0 and 1 a row
	Following bool            `json:"following"`
	Away      bool            `json:"away,omitempty"` // the teacher's socket is gone; the room ends if they are not back soon
	View      json.RawMessage `json:"view,omitempty"`
	Hide      bool            `json:"hide,omitempty"`
	Question  *questionView   `json:"question,omitempty"`
	Counts    *classCounts    `json:"counts,omitempty"`  // the teacher
	History   []*questionView `json:"history,omitempty"` // the teacher: every question asked
	Ended     string          `json:"ended,omitempty"`   // the room ended: teacher-ended, teacher-gone, teacher-moved, left
}

// classCounts are the teacher's figures.
type classCounts struct {
	Members   int `json:"members"`   // students who joined
	Online    int `json:"online"`    // of them, with a socket now
	Following int `json:"following"` // following the teacher
	Roaming   int `json:"roaming"`   // in a private copy
	Answered  int `json:"answered"`  // answers to the open question
}

// poke tells the session its room changed; it never blocks.
func (s *session) poke() {
	select {
	case s.nudge <- struct{}{}:
	default:
	}
}

// classOp applies a class request, and refuses the requests that would
// change the run of a student who follows the class. handled is false for
// the other requests.
func (s *session) classOp(r *Request) (msg *Message, err error, handled bool) {
	seat := s.seat
	if !strings.HasPrefix(r.Op, "class-") {
		if seat != nil && !seat.teacher && seat.following && classDrives[r.Op] {
			return nil, coded("class-following", nil, "you follow the class: press Roam to step on your own"), true
		}
		return nil, nil, false
	}
	switch r.Op {
	case "class-start":
		err = s.classStart(r.Origin)
	case "class-teach":
		err = s.classTeach(r.Code, r.Key)
	case "class-join":
		err = s.classJoin(r.Code, r.Name, r.Token, r.Browser)
	default:
		if seat == nil {
			return nil, coded("no-class", map[string]any{"code": ""}, "you are not in a class"), true
		}
		err = s.classIn(seat, r)
	}
	if err != nil {
		return nil, err, true
	}
	if s.seat == nil {
		why := "left"
		if r.Op == "class-end" {
			why = "teacher-ended"
		}
		s.reshow() // what the room hid comes back
		return &Message{Type: "class", Class: &classView{Code: seat.room.code, Ended: why}}, nil, true
	}
	if r.Op == "class-teach" || r.Op == "class-play" {
		s.push(0) // the run is the room's now, or moved
	}
	return s.classMessage(true), nil, true
}

// classIn applies a request of a session already in a room.
func (s *session) classIn(seat *classSeat, r *Request) error {
	rm := seat.room
	if s.classGone() {
		return coded("no-class", map[string]any{"code": rm.code}, "the class has ended")
	}
	student := map[string]bool{"class-roam": true, "class-follow": true, "class-leave": true, "class-answer": true}
	if seat.teacher == student[r.Op] {
		if seat.teacher {
			return coded("class-student-only", map[string]any{"op": r.Op}, "%s is for students", r.Op)
		}
		return coded("not-teacher", map[string]any{"op": r.Op}, "only the teacher may %s", strings.TrimPrefix(r.Op, "class-"))
	}
	switch r.Op {
	case "class-roam", "class-follow":
		if (r.Op == "class-follow") == seat.following {
			if seat.following { // not a switch: a page catching up (a reconnected phone) is never slowed
				seat.posVer = -1
				return s.classFollow()
			}
			return nil
		}
		if wait := seat.spendSwitch(time.Now()); wait > 0 {
			secs := int(wait.Seconds() + 1)
			return coded("switch-slow-down", map[string]any{"seconds": secs}, "too many switches between roaming and following: try again in %d s", secs)
		}
		seat.following = r.Op == "class-follow"
		rm.mu.Lock()
		seat.m.roam = !seat.following
		rm.countChangedLocked()
		rm.mu.Unlock()
		if seat.following {
			seat.posVer = -1
			return s.classFollow()
		}
	case "class-leave":
		s.classLeave("left")
	case "class-view":
		return rm.setView(r.View)
	case "class-hide":
		if r.Hide == nil {
			return badArg(r.Op, "hide", both("hide is missing", "缺少 hide"))
		}
		rm.mu.Lock()
		rm.hide = *r.Hide
		rm.infoChangedLocked()
		rm.mu.Unlock()
	case "class-ask":
		return s.classAsk(r.Ask)
	case "class-answer":
		return rm.answer(seat.m, r.Question, r.Choice)
	case "class-reveal":
		return rm.reveal()
	case "class-play":
		return s.classPlay()
	case "class-end":
		rm.end("teacher-ended")
		s.seat = nil
	}
	return nil
}

// classStart makes a room that this session's run drives.
func (s *session) classStart(origin string) error {
	if s.ls == nil {
		return coded("no-scenario", nil, "no scenario loaded: send load first")
	}
	if s.srv.opts.Servers != nil {
		// Each student's world would be placed on the real servers and
		// replayed in real time: a class runs on embedded Redis.
		return coded("class-embedded", nil, "a class runs on embedded Redis (every student's world replays the teacher's run)")
	}
	link, err := joinLink(origin)
	if err != nil {
		return err
	}
	if s.seat != nil {
		if s.seat.teacher {
			return coded("class-already", map[string]any{"code": s.seat.room.code}, "you already teach the class %s", s.seat.room.code)
		}
		s.classLeave("left")
	}
	rm, key, err := s.srv.openRoom(s, s.guessAddr())
	if err != nil {
		return err
	}
	link += "/#join=" + rm.code
	s.seat = &classSeat{room: rm, teacher: true, link: link, qr: qr.Rows(link), infoVer: -1, countVer: -1}
	s.classPublish()
	s.seat.key = key // the answer to this request carries it, once
	return nil
}

// joinLink checks the page's origin ("http://host:port"), which the join
// link and its QR code start with.
func joinLink(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || len(origin) > maxOrigin || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", badArg("class-start", "origin", both("origin must be the page's origin, such as http://10.0.0.5:8080", "origin 必须是页面的源（协议、主机和端口），例如 http://10.0.0.5:8080"))
	}
	return u.Scheme + "://" + u.Host, nil
}

// classTeach makes this session the teacher of a room, given its key: the
// teacher's link opened in another tab or on another machine. The session
// takes the room's run; the previous teacher's session leaves the room.
func (s *session) classTeach(code, key string) error {
	addr := s.guessAddr()
	rm, err := s.srv.findRoom(code, addr, func(r *room) bool { return r.checkKey(key) })
	if err != nil {
		return err
	}
	if !rm.checkKey(key) {
		s.srv.classes.misses.miss(addr)
		return coded("bad-key", nil, "that is not this class's teacher link")
	}
	if s.seat != nil && s.seat.room != rm {
		s.classLeave("left")
	}
	rm.mu.Lock()
	if rm.ended != "" {
		rm.mu.Unlock()
		return coded("no-class", map[string]any{"code": rm.code}, "the class has ended")
	}
	old := rm.teacher
	rm.teacher = s
	if s.seat != nil && s.seat.m != nil {
		rm.dropLocked(s.seat.m)
	}
	pos := rm.pos
	rm.infoChangedLocked()
	rm.mu.Unlock()
	if old != s {
		old.poke() // it sees it no longer teaches
	}
	link := ""
	if s.seat != nil {
		link = s.seat.link
	}
	s.seat = &classSeat{room: rm, teacher: true, link: link, infoVer: -1, countVer: -1}
	if link != "" {
		s.seat.qr = qr.Rows(link)
	}
	if pos != nil && (s.ls == nil || pos.ver > 0) {
		if err := s.followTo(pos); err != nil {
			return err
		}
	}
	rm.teacherBack()
	return nil
}

// classJoin makes this session a student of a room, or (with the token of
// a member) that member again. A browser (the page's id for it, kept in
// its storage) holds one membership of a room: a second tab joining under
// another nickname is refused while the first has its socket open
// (class-one-seat), and replaces the first when it is gone (a closed tab);
// under the same nickname it is that member again. A whole class behind a
// school's one address is many browsers, so the rule is by browser, not
// by address.
func (s *session) classJoin(code, name, token, browser string) error {
	if len(browser) > maxBrowserID {
		return badArg("class-join", "browser", both("browser is at most %d characters", "browser 最多 %d 个字符", maxBrowserID))
	}
	rm, err := s.srv.findRoom(code, s.guessAddr(), func(r *room) bool { return r.isMember(token) })
	if err != nil {
		return err
	}
	if s.seat != nil {
		if s.seat.room == rm && !s.seat.teacher {
			return nil // already in: the answer says so
		}
		if s.seat.teacher {
			return coded("class-teacher", nil, "you teach a class: end it before joining another")
		}
		s.classLeave("left")
	}
	rm.mu.Lock()
	if rm.ended != "" {
		rm.mu.Unlock()
		return coded("no-class", map[string]any{"code": rm.code}, "the class has ended")
	}
	m := rm.members[token]
	var gone *session // the session of the browser's membership that gives way
	if token == "" || m == nil {
		nick, err := checkName(name)
		if err != nil {
			rm.mu.Unlock()
			return err
		}
		mine := rm.browsers[browser] // this browser's membership, if any
		if browser == "" {
			mine = nil
		}
		switch {
		case mine != nil && foldName(mine.name) == foldName(nick):
			m = mine // the same browser and nickname: the same student
		case mine != nil && mine.sess.open.Load() > 0:
			rm.mu.Unlock()
			return coded("class-one-seat", map[string]any{"name": mine.name}, "this browser is in the class already, as %s: one nickname a browser", mine.name)
		case rm.names[foldName(nick)] != nil:
			rm.mu.Unlock()
			return coded("name-taken", map[string]any{"name": nick}, "someone in this class is already called %s: pick another nickname", nick)
		case mine == nil && len(rm.members) >= s.srv.limits.MaxClassSize:
			rm.mu.Unlock()
			return coded("class-full", map[string]any{"max": s.srv.limits.MaxClassSize}, "the class is full (%d students)", s.srv.limits.MaxClassSize)
		}
		if m == nil {
			if mine != nil { // its tab is closed: the new nickname takes its place
				gone = mine.sess
				rm.dropLocked(mine)
			}
			m = &member{token: newToken(), name: nick, browser: browser}
			rm.members[m.token] = m
			rm.names[foldName(nick)] = m
			if browser != "" {
				rm.browsers[browser] = m
			}
		}
	}
	prev := m.sess
	m.sess, m.roam = s, false
	rm.countChangedLocked()
	rm.mu.Unlock()
	if prev != nil && prev != s {
		prev.poke() // it sees the member moved here
	}
	if gone != nil && gone != s {
		gone.poke() // it sees it left
	}
	s.seat = &classSeat{room: rm, m: m, following: true, posVer: -1, infoVer: -1, countVer: -1}
	return s.classFollow()
}

// checkName cleans a nickname: trimmed, 1 to maxNameRunes characters, no
// control or invisible formatting characters, no line or paragraph
// separators (U+2028, U+2029: a line break in the teacher's list).
func checkName(name string) (string, error) {
	n := strings.TrimSpace(name)
	bad := n == "" || !utf8.ValidString(n) || utf8.RuneCountInString(n) > maxNameRunes ||
		strings.ContainsFunc(n, func(r rune) bool {
			return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
		})
	if bad {
		return "", coded("bad-name", map[string]any{"max": maxNameRunes}, "a nickname is 1 to %d characters, without control characters", maxNameRunes)
	}
	return n, nil
}

// foldName is the form in which two nicknames are the same.
func foldName(n string) string { return strings.ToLower(n) }

// guessAddr is the client address of the session's browser, which wrong
// codes and keys count against.
func (s *session) guessAddr() string {
	if s.conn == nil {
		return s.addr
	}
	return s.conn.addr
}

// classGone reports whether this session's room has ended or has another
// teacher than this session (then the seat is stale).
func (s *session) classGone() bool {
	seat := s.seat
	rm := seat.room
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.ended != "" {
		return true
	}
	if seat.teacher {
		return rm.teacher != s
	}
	return seat.m.sess != s || rm.members[seat.m.token] != seat.m
}

// classLeave takes the session out of its room: a student is forgotten
// (nickname and answers); a teacher who leaves ends the room.
func (s *session) classLeave(why string) {
	seat := s.seat
	if seat == nil {
		return
	}
	s.seat = nil
	rm := seat.room
	if seat.teacher {
		rm.mu.Lock()
		mine := rm.teacher == s
		rm.mu.Unlock()
		if mine && why == "gone" && rm.awayGrace() && !s.srv.isClosed() {
			return // an away teacher's session evicted: the room waits for the key all the same
		}
		if mine {
			rm.end("teacher-ended")
		}
		return
	}
	rm.mu.Lock()
	if seat.m.sess == s {
		rm.dropLocked(seat.m)
	}
	rm.mu.Unlock()
}

// dropLocked forgets a member.
func (r *room) dropLocked(m *member) {
	if r.members[m.token] == m {
		delete(r.members, m.token)
		delete(r.names, foldName(m.name))
		if r.browsers[m.browser] == m {
			delete(r.browsers, m.browser)
		}
		if q := r.question; q != nil {
			q.Forget(m.token)
		}
		r.countChangedLocked()
	}
}

// infoChangedLocked marks what everyone sees as changed and wakes every
// session in the room; countChangedLocked, what only the teacher sees.
func (r *room) infoChangedLocked() {
	r.infoVer++
	r.teacher.poke()
	r.pokeMembersLocked()
}

func (r *room) countChangedLocked() {
	r.countVer++
	r.teacher.poke()
}

// classPublish makes the teacher's run the room's position, when it moved:
// every student who follows replays it.
func (s *session) classPublish() {
	seat := s.seat
	if seat == nil || !seat.teacher || s.ls == nil {
		return
	}
	p := &position{sc: s.ls.Scenario(), custom: s.custom, file: s.file, challenge: s.challenge, builtin: s.builtin,
		seed: s.ls.Seed(), actions: slices.Clone(s.ls.Actions()), cursor: s.ls.Cursor(), chapters: s.chapters.json, playing: s.playing}
	rm := seat.room
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if rm.teacher != s || rm.ended != "" {
		return
	}
	if o := rm.pos; o != nil && o.sc == p.sc && o.seed == p.seed && o.cursor == p.cursor && o.challenge == p.challenge &&
		o.playing == p.playing && lesson.Diverge(o.actions, p.actions) < 0 {
		return
	}
	rm.posVer++
	p.ver = rm.posVer
	rm.pos = p
	for _, m := range rm.members {
		if !m.roam {
			m.sess.poke()
		}
	}
}

// classTick runs when the room pokes the session: it sends the browser
// what changed, and a student who follows replays the teacher's new
// position.
func (s *session) classTick() {
	seat := s.seat
	if seat == nil {
		return
	}
	if s.classGone() {
		why := "teacher-moved"
		if seat.room.endedWhy() != "" {
			why = seat.room.endedWhy()
		} else if !seat.teacher {
			why = "left" // the member rejoined from another session
		}
		s.seat = nil
		if s.conn != nil {
			s.conn.enqueue(&Message{Type: "class", Class: &classView{Code: seat.room.code, Ended: why}})
		}
		s.reshow()
		return
	}
	if !seat.teacher && seat.following {
		if err := s.classFollow(); err != nil && s.conn != nil {
			s.conn.enqueue(errorMessage(0, err))
		}
	}
	if m := s.classMessage(false); m != nil && s.conn != nil {
		s.conn.enqueue(m)
	}
	s.reshow()
}

// classHides reports whether the room hides what gives the answer away
// from this session: a student's, while the teacher hides. Its state
// messages then leave out the lesson's paragraph and the expected verdict
// until the run ends (snapshot). The chapters stay: they travel once per
// lesson, whole, and the page hides those the run has not reached.
func (s *session) classHides() bool {
	seat := s.seat
	if seat == nil || seat.teacher {
		return false
	}
	rm := seat.room
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.hide && rm.ended == ""
}

// reshow sends the state again when what the room hides from this session
// changed since the last state message: the teacher stopped or started
// hiding, or the session left the room.
func (s *session) reshow() {
	if s.ls == nil || s.conn == nil || s.classHides() == s.hidSent {
		return
	}
	s.push(0)
}

// endedWhy is why the room ended, "" while it lives.
func (r *room) endedWhy() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended
}

// classFollow replays the teacher's position on this student's world when
// it is not there yet, and pushes the new state.
func (s *session) classFollow() error {
	seat := s.seat
	rm := seat.room
	rm.mu.Lock()
	p := rm.pos
	rm.mu.Unlock()
	if p == nil || p.ver == seat.posVer {
		return nil
	}
	err := s.followTo(p)
	seat.posVer = p.ver
	s.push(0)
	return err
}

// followTo makes the session's world the run at position p: a new world
// when the scenario or seed differs, else the same one stepped or replayed
// to the cursor, in the engine's slices and within the budgets.
func (s *session) followTo(p *position) error {
	s.setPlaying(false)
	if s.ls == nil || s.ls.Scenario() != p.sc || s.ls.Seed() != p.seed {
		var ls *lesson.Session
		var err error
		s.bulkTurn(func() { ls, err = lesson.NewSession(p.sc, lesson.Config{Seed: p.seed, Servers: s.servers()}) })
		if err != nil {
			return err
		}
		if s.ls != nil {
			s.ls.Close()
		}
		s.ls, s.valid = ls, 0
	}
	d := lesson.Diverge(s.ls.Actions(), p.actions)
	var err error
	s.bulkTurn(func() { err = s.ls.Follow(p.actions) })
	if err == nil {
		err = seekIn(s, s.ls, p.cursor)
	}
	s.valid = min(s.valid, lesson.EventsBefore(s.ls.Log(), d))
	s.custom, s.file, s.challenge, s.builtin = p.custom, p.file, p.challenge, p.builtin
	s.chapters = chapterCache{sc: p.sc, seed: p.seed, json: p.chapters}
	if err != nil {
		return err
	}
	return s.account()
}

// classMessage is the class message for this session; with force it is
// made even when nothing changed since the last (nil then otherwise).
func (s *session) classMessage(force bool) *Message {
	seat := s.seat
	rm := seat.room
	rm.mu.Lock()
	defer rm.mu.Unlock()
	if !force && seat.infoVer == rm.infoVer && (!seat.teacher || seat.countVer == rm.countVer) {
		return nil
	}
	seat.infoVer, seat.countVer = rm.infoVer, rm.countVer
	v := &classView{Code: rm.code, Following: seat.teacher || seat.following, Away: rm.awaySet, View: rm.view, Hide: rm.hide}
	if seat.teacher {
		v.Role, v.Link, v.QR, v.Key = "teacher", seat.link, seat.qr, seat.key
		seat.key = ""
		v.Counts = rm.countsLocked()
		for _, q := range rm.history {
			v.History = append(v.History, (*questionView)(q.View("", true)))
		}
		if q := rm.question; q != nil {
			v.Question = (*questionView)(q.View("", true))
		}
	} else {
		v.Role, v.Name, v.Token = "student", seat.m.name, seat.m.token
		if q := rm.question; q != nil {
			v.Question = (*questionView)(q.View(seat.m.token, false))
		}
	}
	return &Message{Type: "class", Class: v}
}

// classAttached and classDetached tell the room that the session's socket
// came or went: a teacher's leaving starts the room's grace, a student's
// changes the counts.
func (s *session) classAttached() {
	seat := s.seat
	if seat == nil {
		return
	}
	if s.classGone() {
		s.classTick()
		return
	}
	rm := seat.room
	if seat.teacher {
		rm.teacherBack()
	} else {
		rm.mu.Lock()
		rm.countChangedLocked()
		rm.mu.Unlock()
	}
	seat.infoVer, seat.countVer = -1, -1
	if !seat.teacher && seat.following {
		seat.posVer = -1 // a reconnecting phone catches up at once
		_ = s.classFollow()
	}
	if s.conn != nil {
		s.conn.enqueue(s.classMessage(true))
	}
}

func (s *session) classDetached() {
	seat := s.seat
	if seat == nil || s.classGone() {
		return
	}
	rm := seat.room
	if seat.teacher {
		rm.teacherAway()
		return
	}
	rm.mu.Lock()
	rm.countChangedLocked()
	rm.mu.Unlock()
}

// sharedPush sends a following student the state message every student
// at the same place gets: all of them replay the same run, so the message
// is the same bytes, made once per room, position and starting event (the
// first student to need it marshals it). It reports whether it sent.
func (s *session) sharedPush(re int) bool {
	seat := s.seat
	if re != 0 || seat == nil || seat.teacher || !seat.following {
		return false
	}
	rm := seat.room
	log := s.ls.Log()
	key := frameKey{ver: seat.posVer, from: min(s.sent, s.valid, len(log)), n: len(log)}
	rm.mu.Lock()
	key.hide = rm.hide && rm.ended == ""
	if rm.pos == nil || rm.pos.ver != seat.posVer {
		rm.mu.Unlock()
		return false
	}
	if rm.frameVer != seat.posVer {
		rm.frameVer, rm.frames = seat.posVer, map[frameKey][]byte{}
	}
	b := rm.frames[key]
	rm.mu.Unlock()
	if b == nil {
		var err error
		if b, err = json.Marshal(s.stateMessage(0, false)); err != nil {
			return false
		}
		rm.mu.Lock()
		if rm.frameVer == seat.posVer && len(rm.frames) < maxFrames && s.hidSent == key.hide {
			rm.frames[key] = b
		}
		rm.mu.Unlock()
	}
	s.sent, s.valid, s.hidSent = len(log), len(log), key.hide
	s.conn.enqueueRaw(b)
	return true
}

// frameKey names a shared state message: the position it shows, the
// events the browser held before it, and whether it hides what gives the
// answer away.
type frameKey struct {
	ver, from, n int
	hide         bool
}

// maxFrames bounds the shared messages a room keeps for one position (a
// student who roamed and came back may start from anywhere).
const maxFrames = 64

// enqueueRaw queues an encoded message as enqueue does.
func (c *conn) enqueueRaw(b []byte) {
	select {
	case <-c.done:
	case c.send <- b:
	default:
		c.close(websocket.ClosePolicyViolation, "too slow: the send queue is full")
	}
}
