package class

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Member is one student in a room.
type Member struct {
	token   string // the member's secret: a reconnecting page rejoins with it
	name    string
	browser string // the page's id for its browser ("" when the request had none)
	p       Participant
	roam    bool // in a private copy, not following
}

// Name is the member's nickname.
func (m *Member) Name() string { return m.name }

// Token is the member's secret, with which a page rejoins as the member.
func (m *Member) Token() string { return m.token }

// maxNameRunes is a nickname's length at most.
const maxNameRunes = 24

// Join makes p a student of the room, or (with the token of a member)
// that member again. A browser (the page's id for it, kept in its
// storage) holds one membership of a room: a second tab joining under
// another nickname is refused while the first has its socket open
// (class-one-seat), and replaces the first when it is gone (a closed tab);
// under the same nickname it is that member again. A whole class behind a
// school's one address is many browsers, so the rule is by browser, not
// by address. The session the member was before is poked: it sees it
// left.
func (r *Room) Join(p Participant, name, token, browser string) (*Member, error) {
	r.mu.Lock()
	if r.ended != "" {
		r.mu.Unlock()
		return nil, refuse("no-class", map[string]any{"code": r.code}, "the class has ended")
	}
	m := r.members[token]
	var gone Participant // the session of the browser's membership that gives way
	if token == "" || m == nil {
		var err error
		if m, gone, err = r.seatLocked(name, browser); err != nil {
			r.mu.Unlock()
			return nil, err
		}
	}
	prev := m.p
	m.p, m.roam = p, false
	r.countChangedLocked()
	r.mu.Unlock()
	if prev != nil && prev != p {
		prev.Poke() // it sees the member moved here
	}
	if gone != nil && gone != p {
		gone.Poke() // it sees it left
	}
	return m, nil
}

// seatLocked is the membership a join without a member's token takes:
// the browser's own under the same nickname, or a new one, which takes
// the place of the browser's membership whose tab is closed (gone).
func (r *Room) seatLocked(name, browser string) (m *Member, gone Participant, err error) {
	nick, err := checkName(name)
	if err != nil {
		return nil, nil, err
	}
	mine := r.browsers[browser] // this browser's membership, if any
	if browser == "" {
		mine = nil
	}
	switch {
	case mine != nil && foldName(mine.name) == foldName(nick):
		return mine, nil, nil // the same browser and nickname: the same student
	case mine != nil && mine.p.Online():
		return nil, nil, refuse("class-one-seat", map[string]any{"name": mine.name}, "this browser is in the class already, as %s: one nickname a browser", mine.name)
	case r.names[foldName(nick)] != nil:
		return nil, nil, refuse("name-taken", map[string]any{"name": nick}, "someone in this class is already called %s: pick another nickname", nick)
	case mine == nil && len(r.members) >= r.table.limits.MaxClassSize:
		most := r.table.limits.MaxClassSize
		return nil, nil, refuse("class-full", map[string]any{"max": most}, "the class is full (%d students)", most)
	}
	if mine != nil { // its tab is closed: the new nickname takes its place
		gone = mine.p
		r.dropLocked(mine)
	}
	m = &Member{token: newToken(), name: nick, browser: browser}
	r.members[m.token] = m
	r.names[foldName(nick)] = m
	if browser != "" {
		r.browsers[browser] = m
	}
	return m, gone, nil
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
		return "", refuse("bad-name", map[string]any{"max": maxNameRunes}, "a nickname is 1 to %d characters, without control characters", maxNameRunes)
	}
	return n, nil
}

// foldName is the form in which two nicknames are the same.
func foldName(n string) string { return strings.ToLower(n) }

// Teach makes p the room's teacher (the teacher's link opened in another
// tab or on another machine), dropping m, its membership of the room if
// it was a student; the teacher before is poked: it sees it no longer
// teaches. It returns the teacher's position, which p's run takes.
func (r *Room) Teach(p Participant, m *Member) (*Position, error) {
	r.mu.Lock()
	if r.ended != "" {
		r.mu.Unlock()
		return nil, refuse("no-class", map[string]any{"code": r.code}, "the class has ended")
	}
	old := r.teacher
	r.teacher = p
	if m != nil {
		r.dropLocked(m)
	}
	pos := r.pos
	r.infoChangedLocked()
	r.mu.Unlock()
	if old != p {
		old.Poke()
	}
	return pos, nil
}

// Gone reports whether p's place in the room is stale: the room ended, or
// has another teacher than p (m nil), or m is no longer p's membership.
func (r *Room) Gone(p Participant, m *Member) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" {
		return true
	}
	if m == nil {
		return r.teacher != p
	}
	return m.p != p || r.members[m.token] != m
}

// Leave forgets a student who leaves (nickname and answers), if m is
// still p's membership.
func (r *Room) Leave(p Participant, m *Member) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.p == p {
		r.dropLocked(m)
	}
}

// TeacherLeaves ends the room when p teaches it, unless p's session was
// evicted while the room waits for its away teacher: the room then waits
// for the key all the same.
func (r *Room) TeacherLeaves(p Participant, evicted bool) {
	r.mu.Lock()
	mine, waits := r.teacher == p, r.awaySet && r.ended == ""
	r.mu.Unlock()
	if mine && !(evicted && waits) {
		r.End("teacher-ended")
	}
}

// dropLocked forgets a member.
func (r *Room) dropLocked(m *Member) {
	if r.members[m.token] == m {
		delete(r.members, m.token)
		delete(r.names, foldName(m.name))
		if r.browsers[m.browser] == m {
			delete(r.browsers, m.browser)
		}
		if q := r.question; q != nil {
			q.forget(m.token)
		}
		r.countChangedLocked()
	}
}

// Roam says whether m roams in a private copy or follows the teacher. A
// copy made clears the teacher's notice of refused ones (Refuse): the
// server had room again.
func (r *Room) Roam(m *Member, roam bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m.roam = roam
	if roam {
		r.refused = nil
	}
	r.countChangedLocked()
}

// Recount tells the teacher the counts changed: a student's socket came
// or went.
func (r *Room) Recount() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.countChangedLocked()
}

// Switches are a student's switches between roaming and following: she
// may switch SwitchBurst times at once, then once every SwitchEvery. Each
// switch to roam makes her a copy of the run, and each changes the teacher's counts, which
// a script switching in a loop would otherwise turn into a stream of
// messages to the teacher. The zero value is a full allowance.
type Switches struct {
	left float64   // switches left
	at   time.Time // when left was last topped up
}

const (
	SwitchBurst = 20
	SwitchEvery = 500 * time.Millisecond
)

// Spend takes one switch at now, or says how long to wait.
func (s *Switches) Spend(now time.Time) error {
	if s.at.IsZero() {
		s.left = SwitchBurst
	} else {
		s.left = min(SwitchBurst, s.left+now.Sub(s.at).Seconds()/SwitchEvery.Seconds())
	}
	s.at = now
	if s.left < 1 {
		wait := time.Duration((1 - s.left) * float64(SwitchEvery))
		secs := int(wait.Seconds() + 1)
		return refuse("switch-slow-down", map[string]any{"seconds": secs}, "too many switches between roaming and following: try again in %d s", secs)
	}
	s.left--
	return nil
}
