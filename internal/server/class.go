package server

import (
	"encoding/json"
	"github.com/lockstep/lockstep/internal/fact"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/class"
)

// A session's part in a class (internal/class holds the rooms and their
// rules): the requests of docs/protocol.md's Classes section, read off
// the socket and applied on the session's goroutine, and what the session
// sends its browser when the room changes.

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
		"class-view", "class-hide", "class-ask", "class-answer", "class-reveal", "class-dismiss", "class-play", "class-end"}
	classDrives = map[string]bool{"load": true, "step": true, "step-client": true, "back": true, "seek": true,
		"play": true, "pause": true, "inject": true, "reset": true, "seed": true, "explore": true, "explore-cancel": true}
	// classOwnRun are the requests that need a world of the session's own,
	// which a following student's session does not hold (classshare.go);
	// compare is not one: it replays the class's run afresh, as Side by
	// side on the teacher's screen asks every following screen to.
	classOwnRun = map[string]bool{"export-yaml": true}
)

func init() {
	for _, op := range classOps {
		ops[op] = true
	}
}

// Caps on what a class request may carry.
const (
	maxOrigin    = 200 // the page's origin
	maxBrowserID = 64  // the page's id for its browser
)

// classState is what a session keeps of its class.
type classState struct {
	seat    *classSeat
	nudge   chan struct{} // the room changed: see what (Poke, classTick)
	hidSent bool          // the last state message left out what gives the answer away (classHides)
	// shown is the class's run the browser is shown while the session
	// holds no world of it (a following student, or a former one until
	// she acts on it: ownRun), and held the shared events the browser
	// holds (classshare.go).
	shown     *class.Position
	held      []json.RawMessage
	shareCost int64 // a teacher's: what the class's shared run holds (shareRun)
}

// classSeat is a session's place in a room.
type classSeat struct {
	room      *class.Room
	teacher   bool
	m         *class.Member // a student's membership
	following bool
	posVer    int        // the teacher's position this session's browser was last sent (students)
	seen      class.Seen // what the last class message showed
	link      string
	qr        []string
	key       string         // the teacher's key, until the answer to class-start has carried it
	switches  class.Switches // a student's switches between roaming and following
	share     classShare     // a teacher's: the run as the class is sent it
	queueVer  int            // a teacher's: the room's queue as the page was last sent it (queueTick)
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
	Refused   *classRefusal   `json:"refused,omitempty"` // the teacher: the last student's copy of the run refused for memory
}

// classRefusal tells the teacher of a student's copy of the run that the
// server had no memory for (class.Refusal): the page says it in words.
type classRefusal struct {
	Name  string `json:"name"`  // the student's nickname
	Step  int    `json:"step"`  // the step the copy was to start at
	Max   string `json:"max"`   // the memory budget that refused it
	Count int    `json:"count"` // copies refused so far in the class
}

// classCounts are the teacher's figures (class.Counts).
type classCounts struct {
	Members   int `json:"members"`   // students who joined
	Online    int `json:"online"`    // of them, with a socket now
	Following int `json:"following"` // following the teacher
	Roaming   int `json:"roaming"`   // in a private copy
	Answered  int `json:"answered"`  // answers to the open question
}

// A session is a class.Participant: the room pokes it when it changed,
// and sees whether its socket is open and the network it came from.

// Poke tells the session its room changed; it never blocks.
func (s *session) Poke() {
	select {
	case s.nudge <- struct{}{}:
	default:
	}
}

// Online reports whether a browser's socket is attached to the session.
func (s *session) Online() bool { return s.open.Load() > 0 }

// Network is the network of the address that made the session.
func (s *session) Network() string { return limitKey(s.addr) }

// classOp applies a class request, and refuses the requests that would
// change the run of a student who follows the class. handled is false for
// the other requests.
func (s *session) classOp(r *Request) (msg *Message, err error, handled bool) {
	seat := s.seat
	if !strings.HasPrefix(r.Op, "class-") {
		if seat != nil && !seat.teacher && seat.following && (classDrives[r.Op] || s.ls == nil && classOwnRun[r.Op]) {
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
		return &Message{Type: "class", Class: &classView{Code: seat.room.Code(), Ended: why}}, nil, true
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
		return coded("no-class", map[string]any{"code": rm.Code()}, "the class has ended")
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
		return s.classSwitch(seat, r.Op == "class-follow")
	case "class-leave":
		s.classLeave("left")
	case "class-view":
		return rm.SetView(r.View)
	case "class-hide":
		if r.Hide == nil {
			return badArg(r.Op, "hide", fact.Say("server.hide-is-missing"))
		}
		rm.SetHide(*r.Hide)
	case "class-ask":
		return s.classAsk(r.Ask)
	case "class-answer":
		return rm.Answer(seat.m, r.Question, r.Choice)
	case "class-reveal":
		return rm.Reveal()
	case "class-dismiss":
		return rm.Dismiss()
	case "class-play":
		return s.classPlay()
	case "class-end":
		rm.End("teacher-ended")
		s.unseat()
	}
	return nil
}

// classSwitch makes a student follow the teacher or roam on her own, within
// her allowance of switches.
func (s *session) classSwitch(seat *classSeat, follow bool) error {
	if follow == seat.following {
		if seat.following { // not a switch: a page catching up (a reconnected phone) is never slowed
			seat.posVer = -1
			s.classFollow()
		}
		return nil
	}
	if err := seat.switches.Spend(time.Now()); err != nil {
		return err
	}
	if !follow {
		if err := s.roamCopy(seat); err != nil {
			return err
		}
	}
	seat.following = follow
	seat.room.Roam(seat.m, !follow)
	if follow {
		seat.posVer = -1
		s.classFollow()
	}
	return nil
}

// unseat takes the session out of its seat; a teacher's shared run is no
// longer counted.
func (s *session) unseat() {
	s.seat = nil
	s.setShareCost(0)
}
