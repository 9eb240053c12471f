package server

import (
	"errors"
	"github.com/lockstep/lockstep/internal/fact"
	"net/url"
	"time"

	"github.com/lockstep/lockstep/internal/class"
	"github.com/lockstep/lockstep/internal/qr"
)

// How a session comes into a class and leaves it: class-start,
// class-teach, class-join, and the session's going.

// classGuard counts the server's class requests by address for its
// class.Table: an address's network (limitKey) and its wrong codes and
// keys (the misses limiter).
type classGuard struct{ misses *limiter }

func (g classGuard) Network(addr string) string     { return limitKey(addr) }
func (g classGuard) Wait(addr string) time.Duration { return g.misses.wait(addr) }
func (g classGuard) Miss(addr string)               { g.misses.miss(addr) }

// findRoom looks a room up by code (class.Table.Find) and says a miss to
// the page with the code as typed, cut short.
func (s *Server) findRoom(code, addr string, proves func(*class.Room) bool) (*class.Room, error) {
	rm, err := s.classes.Find(code, addr, proves)
	if errors.Is(err, class.ErrNoRoom) {
		return nil, coded("no-class", map[string]any{"code": short(code)}, "no class has the code %q: check it on the projector", short(code))
	}
	return rm, err
}

// classStart makes a room that this session's run drives.
func (s *session) classStart(origin string) error {
	if s.ls == nil && s.live == nil {
		return coded("no-scenario", nil, "no scenario loaded: send load first")
	}
	if s.srv.opts.Servers != nil {
		// A roaming student's copy and a question's copies would be placed
		// on the real servers and replayed in real time: a class runs on
		// embedded Redis.
		return coded("class-embedded", nil, "a class runs on embedded Redis (a roaming student's copy replays the teacher's run)")
	}
	link, err := joinLink(origin)
	if err != nil {
		return err
	}
	if s.seat != nil {
		if s.seat.teacher {
			code := s.seat.room.Code()
			return coded("class-already", map[string]any{"code": code}, "you already teach the class %s", code)
		}
		s.classLeave("left")
	}
	rm, key, err := s.srv.classes.Open(s, s.guessAddr())
	if err != nil {
		return err
	}
	rm.MeterFrames(func(d int64) { s.srv.total.Add(d) }) // the state messages its students share count in the server's memory
	link += "/#join=" + rm.Code()
	s.seat = &classSeat{room: rm, teacher: true, link: link, qr: qr.Rows(link)}
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
		return "", badArg("class-start", "origin", fact.Say("server.origin-must-be-pages-origin-such"))
	}
	return u.Scheme + "://" + u.Host, nil
}

// classTeach makes this session the teacher of a room, given its key: the
// teacher's link opened in another tab or on another machine. The session
// takes the room's run; the previous teacher's session leaves the room.
func (s *session) classTeach(code, key string) error {
	addr := s.guessAddr()
	rm, err := s.srv.findRoom(code, addr, func(r *class.Room) bool { return r.CheckKey(key) })
	if err != nil {
		return err
	}
	if !rm.CheckKey(key) {
		s.srv.misses.miss(addr)
		return coded("bad-key", nil, "that is not this class's teacher link")
	}
	if s.seat != nil && s.seat.room != rm {
		s.classLeave("left")
	}
	var mine *class.Member // this session's membership of the room, which gives way
	if s.seat != nil {
		mine = s.seat.m
	}
	pos, err := rm.Teach(s, mine)
	if err != nil {
		return err
	}
	link := ""
	if s.seat != nil {
		link = s.seat.link
	}
	s.seat = &classSeat{room: rm, teacher: true, link: link, queueVer: -1} // the room's queue, sent on its tick
	if link != "" {
		s.seat.qr = qr.Rows(link)
	}
	if page, _ := pos.Page.(pageOfRun); pos != nil && page.live != "" {
		s.takeLive(pos)
	} else if pos != nil && (s.ls == nil || pos.Ver > 0) {
		if err := s.followTo(pos); err != nil {
			return err
		}
	}
	rm.TeacherBack()
	return nil
}

// classJoin makes this session a student of a room (class.Room.Join), or
// with the token of a member that member again.
func (s *session) classJoin(code, name, token, browser string) error {
	if len(browser) > maxBrowserID {
		return badArg("class-join", "browser", fact.Say("server.browser-is-at-most-characters", maxBrowserID))
	}
	rm, err := s.srv.findRoom(code, s.guessAddr(), func(r *class.Room) bool { return r.IsMember(token) })
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
	m, err := rm.Join(s, name, token, browser)
	if err != nil {
		return err
	}
	s.seat = &classSeat{room: rm, m: m, following: true, posVer: -1}
	s.classFollow()
	return nil
}

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
	if seat.teacher {
		return seat.room.Gone(s, nil)
	}
	return seat.room.Gone(s, seat.m)
}

// classLeave takes the session out of its room: a student is forgotten
// (nickname and answers); a teacher who leaves ends the room, unless the
// session goes (evicted) while the room waits for its away teacher.
func (s *session) classLeave(why string) {
	seat := s.seat
	if seat == nil {
		return
	}
	s.unseat()
	if seat.teacher {
		seat.room.TeacherLeaves(s, why == "gone" && !s.srv.isClosed())
		return
	}
	seat.room.Leave(s, seat.m)
}
