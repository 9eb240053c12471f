package class

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// desk is a seat in a test's classroom: a Participant whose browser is
// online or not, on a network, and who counts the room's pokes.
type desk struct {
	network string
	online  atomic.Bool
	pokes   atomic.Int32
}

func newDesk(network string) *desk {
	d := &desk{network: network}
	d.online.Store(true)
	return d
}

func (d *desk) Poke()           { d.pokes.Add(1) }
func (d *desk) Online() bool    { return d.online.Load() }
func (d *desk) Network() string { return d.network }

// school is a Guard: each address is its own network, and may guess wrong
// budget times before it waits.
type school struct {
	mu     sync.Mutex
	budget int
	misses map[string]int
}

func (g *school) Network(addr string) string { return addr }

func (g *school) Wait(addr string) time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.misses[addr] >= g.budget {
		return time.Second
	}
	return 0
}

func (g *school) Miss(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.misses == nil {
		g.misses = map[string]int{}
	}
	g.misses[addr]++
}

// roomy are limits that no test here reaches unless it means to.
var roomy = Limits{MaxRooms: 50, MaxRoomsPerAddress: 10, MaxClassSize: 400, ClassGrace: time.Minute, EmptyClassGrace: time.Minute}

// openClass opens a room taught from the network "school", on a table of
// limits l.
func openClass(t *testing.T, l Limits) (*Table, *Room, *desk, string) {
	t.Helper()
	tab := NewTable(l, &school{budget: 3})
	teacher := newDesk("school")
	rm, key, err := tab.Open(teacher, "school")
	if err != nil {
		t.Fatalf("opening a class: %v", err)
	}
	t.Cleanup(func() { rm.End("teacher-ended") })
	return tab, rm, teacher, key
}

// refused fails the test unless err is the class's refusal with code.
func refused(t *testing.T, what string, err error, code string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("%s: got %v, want the refusal %s", what, err, code)
	}
}

// A join code is six characters of an alphabet without 0/O and 1/I/L, and
// is read as a person types it: any case, with spaces and dashes.
func TestAJoinCodeIsReadAsItIsTyped(t *testing.T) {
	for range 200 {
		c := newJoinCode()
		if len(c) != CodeLen || normCode(c) != c {
			t.Fatalf("the code %q is not %d characters of the join alphabet", c, CodeLen)
		}
	}
	for typed, want := range map[string]string{
		"abc-def": "ABCDEF", " ab cd 23 ": "ABCD23", "ABCDE": "", "ABCDEFG": "", "AB0DEF": "", "ABCDEI": "", "ab_def": "",
	} {
		if got := normCode(typed); got != want {
			t.Errorf("%q is read as %q, want %q", typed, got, want)
		}
	}
}

// The teacher's key opens the room to another tab of the teacher's: it
// takes the room, and the session that taught before sees that it no
// longer does. Any other key is refused.
func TestTheTeachersKeyMovesTheClass(t *testing.T) {
	_, rm, first, key := openClass(t, roomy)
	if rm.CheckKey(key+"x") || rm.CheckKey("") || !rm.CheckKey(key) {
		t.Fatal("the room's key is its key and nothing else")
	}
	second := newDesk("home")
	before := first.pokes.Load()
	if _, err := rm.Teach(second, nil); err != nil {
		t.Fatal(err)
	}
	if !rm.Gone(first, nil) || rm.Gone(second, nil) {
		t.Fatal("after the second tab took the class, the first should be gone and the second teach")
	}
	if first.pokes.Load() == before {
		t.Fatal("the first tab was not told it no longer teaches")
	}
	rm.TeacherLeaves(first, false) // a stale teacher leaving ends nothing
	if rm.Ended() != "" {
		t.Fatalf("the class ended (%s) when its old teacher left", rm.Ended())
	}
	rm.TeacherLeaves(second, false)
	if rm.Ended() != "teacher-ended" {
		t.Fatalf("the teacher left and the class is %q, want teacher-ended", rm.Ended())
	}
}

// Wrong codes are counted by address, and only misses count: an address
// past its budget waits, and a right code of a class elsewhere is then
// answered as a miss (it cannot tell them apart); a class on its own
// network, or a secret it holds, still gets it in.
func TestWrongCodesSlowAGuesserNotTheClass(t *testing.T) {
	tab, rm, _, key := openClass(t, roomy)
	for i := range 3 {
		if _, err := tab.Find("ZZZZZZ", "guesser", nil); !errors.Is(err, ErrNoRoom) {
			t.Fatalf("wrong code %d: got %v, want ErrNoRoom", i+1, err)
		}
	}
	_, err := tab.Find(rm.Code(), "guesser", nil)
	refused(t, "the guesser's right code after its misses", err, "class-slow-down")
	if got, err := tab.Find(rm.Code(), "guesser", func(r *Room) bool { return r.CheckKey("guessed") }); got != nil || err == nil {
		t.Fatal("a guesser without the key got in past its budget")
	}
	if got, err := tab.Find(rm.Code(), "guesser", func(r *Room) bool { return r.CheckKey(key) }); got != rm || err != nil {
		t.Fatalf("the teacher's key from a slowed address: got %v, %v", got, err)
	}
	if got, err := tab.Find(rm.Code(), "school", nil); got != rm || err != nil {
		t.Fatalf("a student on the class's own network: got %v, %v", got, err)
	}
}

// A network opens a few classes at once and the server a few more: one
// client cannot take every class. An ended class frees its place.
func TestAnAddressOpensAtMostItsClasses(t *testing.T) {
	tab := NewTable(Limits{MaxRooms: 3, MaxRoomsPerAddress: 2, MaxClassSize: 1}, &school{budget: 3})
	var rooms []*Room
	for range 2 {
		rm, _, err := tab.Open(newDesk("a"), "a")
		if err != nil {
			t.Fatal(err)
		}
		rooms = append(rooms, rm)
	}
	_, _, err := tab.Open(newDesk("a"), "a")
	refused(t, "a third class from one address", err, "address-classes")
	if _, _, err := tab.Open(newDesk("b"), "b"); err != nil {
		t.Fatal(err)
	}
	_, _, err = tab.Open(newDesk("c"), "c")
	refused(t, "a fourth class on the server", err, "rooms-cap")
	rooms[0].End("teacher-ended")
	if _, _, err := tab.Open(newDesk("a"), "a"); err != nil {
		t.Fatalf("after one of its classes ended, the address may open another: %v", err)
	}
}

// A teacher whose socket goes has the grace of an empty class while
// nobody has joined; the class ends when it runs out. Coming back in
// time cancels it.
func TestAnEmptyClassWaitsBrieflyForItsTeacher(t *testing.T) {
	l := roomy
	l.EmptyClassGrace = 50 * time.Millisecond
	_, rm, _, _ := openClass(t, l)
	rm.TeacherAway()
	rm.TeacherBack()
	time.Sleep(150 * time.Millisecond)
	if rm.Ended() != "" {
		t.Fatalf("the teacher came back in time and the class ended: %s", rm.Ended())
	}
	rm.TeacherAway()
	deadline := time.Now().Add(5 * time.Second)
	for rm.Ended() == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if rm.Ended() != "teacher-gone" {
		t.Fatalf("the empty class's teacher stayed away and it is %q, want teacher-gone", rm.Ended())
	}
}
