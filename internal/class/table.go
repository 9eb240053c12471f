package class

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"time"
)

// joinAlphabet writes join codes: no 0/O, 1/I/L, so a code read aloud or
// off a projector is typed right.
const joinAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// CodeLen is a join code's length: 31^6, about 887 million codes.
const CodeLen = 6

// ErrNoRoom is a join code no live room has (or that an address past its
// budget of guesses may not find).
var ErrNoRoom = errors.New("class: no class has that code")

// Limits are a table's caps and a room's patience.
type Limits struct {
	MaxRooms           int           // live rooms at once
	MaxRoomsPerAddress int           // live rooms opened from one network
	MaxClassSize       int           // students in a room
	ClassGrace         time.Duration // how long a room waits for its away teacher
	EmptyClassGrace    time.Duration // the same while nobody has joined
}

// Guard is how the server counts addresses: the network an address
// belongs to (budgets count an IPv6 /64 as one), and its budget of wrong
// codes and keys.
type Guard interface {
	Network(addr string) string
	Wait(addr string) time.Duration // how long addr must wait before its next guess (0: now)
	Miss(addr string)               // addr guessed wrong
}

// Table is the live rooms, by join code and by the network that opened
// them. (Lock order: the server's own lock, Table's, a Room's.)
type Table struct {
	limits Limits
	guard  Guard

	mu     sync.Mutex
	rooms  map[string]*Room
	byAddr map[string]int // rooms open, by the opening address's network
}

// NewTable makes an empty table of rooms.
func NewTable(l Limits, g Guard) *Table {
	return &Table{limits: l, guard: g, rooms: map[string]*Room{}, byAddr: map[string]int{}}
}

// Open makes a room driven by teacher, whose browser is at addr, and
// returns it with the teacher's key (given once, never kept). A network
// opens at most Limits.MaxRoomsPerAddress rooms at once: one client cannot
// take every room of the server.
func (t *Table) Open(teacher Participant, addr string) (*Room, string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.rooms) >= t.limits.MaxRooms {
		return nil, "", refuse("rooms-cap", map[string]any{"max": t.limits.MaxRooms}, "too many classes on this server (the cap is %d): try again later", t.limits.MaxRooms)
	}
	at := t.guard.Network(addr)
	if t.byAddr[at] >= t.limits.MaxRoomsPerAddress {
		return nil, "", refuse("address-classes", map[string]any{"max": t.limits.MaxRoomsPerAddress},
			"your address has %d classes open, the most one address may: end one and try again", t.limits.MaxRoomsPerAddress)
	}
	code := newJoinCode()
	for t.rooms[code] != nil {
		code = newJoinCode()
	}
	key := newKey(16)
	r := &Room{code: code, keyHash: sha256.Sum256([]byte(key)), table: t, teacher: teacher, network: at,
		members: map[string]*Member{}, names: map[string]*Member{}, browsers: map[string]*Member{}}
	t.rooms[code] = r
	t.byAddr[at]++
	return r, key, nil
}

// Find looks a room up by code for a request from addr. The code is
// looked up first, and only a miss spends one of the address's guesses: a
// school behind one address, where one student guesses codes, still gets
// into its classes. A room found gets in when proves says the request
// holds its secret (a member's token, the teacher's key: nobody guesses
// those), when the address is not slowed down, or when the room is
// already on the address's network (its teacher or a member there). A
// slowed address's right code for a room elsewhere is answered as a miss
// is, so that a guesser past its budget cannot tell a hit from a miss. A
// miss is ErrNoRoom.
func (t *Table) Find(code, addr string, proves func(*Room) bool) (*Room, error) {
	c := normCode(code)
	t.mu.Lock()
	r := t.rooms[c]
	t.mu.Unlock()
	if r != nil && proves != nil && proves(r) {
		return r, nil
	}
	wait := t.guard.Wait(addr)
	if r != nil && (wait == 0 || r.onNetwork(t.guard.Network(addr))) {
		return r, nil
	}
	if wait > 0 {
		secs := int(wait.Seconds() + 1)
		return nil, refuse("class-slow-down", map[string]any{"seconds": secs}, "too many wrong codes from your address: try again in %d s", secs)
	}
	t.guard.Miss(addr)
	return nil, ErrNoRoom
}

// AwayTeachers are the teachers whose rooms wait for them.
func (t *Table) AwayTeachers() map[Participant]bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out map[Participant]bool
	for _, r := range t.rooms {
		r.mu.Lock()
		if r.awaySet && r.ended == "" {
			if out == nil {
				out = map[Participant]bool{}
			}
			out[r.teacher] = true
		}
		r.mu.Unlock()
	}
	return out
}

// forget removes an ended room.
func (t *Table) forget(r *Room) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.rooms[r.code] == r {
		delete(t.rooms, r.code)
		if t.byAddr[r.network]--; t.byAddr[r.network] <= 0 {
			delete(t.byAddr, r.network)
		}
	}
}

// newKey makes a random secret of n bytes, base64url.
func newKey(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// newToken makes a member's token.
func newToken() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newJoinCode draws a code of CodeLen characters from joinAlphabet,
// without modulo bias.
func newJoinCode() string {
	var out [CodeLen]byte
	var b [1]byte
	for i := 0; i < CodeLen; {
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
	if b.Len() != CodeLen {
		return ""
	}
	return b.String()
}
