package class

import (
	"crypto/sha256"
	"crypto/subtle"
	"time"
)

// A teacher's remote: a second device (most often the teacher's phone)
// that holds the teacher's key and drives the room's run while the
// projector shows it. The remote's session holds no run of its own: the
// server hands its requests to the teacher's session, which applies them
// as its own. The room knows its remotes only to tell them when it
// changes.
//
// The remote's link never carries the key on the projector: the teacher's
// page asks for a one-time pairing secret (Pair), shown as a QR code for
// PairFor; the first remote that gives it is let in and given the key,
// and the secret is spent.

// Caps on a room's remotes.
const (
	MaxRemotes = 4               // remotes at once
	PairFor    = 2 * time.Minute // how long a pairing secret lets a remote in
)

// remotes are a room's remotes and its pairing secret, under the room's
// lock.
type remotes struct {
	set       map[Participant]bool
	pairHash  [32]byte  // sha256 of the pairing secret
	pairKey   string    // the teacher's key, given to the remote that pairs
	pairUntil time.Time // the secret's end; zero when none is open
}

// Teacher is the session that teaches the room (a remote hands it the
// requests it drives with).
func (r *Room) Teacher() Participant {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.teacher
}

// AddRemote makes p one of the room's remotes.
func (r *Room) AddRemote(p Participant) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" {
		return refuse("no-class", map[string]any{"code": r.code}, "the class has ended")
	}
	if r.teacher == p {
		return refuse("remote-teacher", nil, "this page teaches the class: open the remote on another device")
	}
	if !r.remote.set[p] && len(r.remote.set) >= MaxRemotes {
		return refuse("remotes-full", map[string]any{"max": MaxRemotes}, "the class has %d remotes already, the most it may", MaxRemotes)
	}
	if r.remote.set == nil {
		r.remote.set = map[Participant]bool{}
	}
	r.remote.set[p] = true
	return nil
}

// DropRemote forgets the remote p.
func (r *Room) DropRemote(p Participant) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.remote.set, p)
}

// IsRemote reports whether p is a remote of the room, which lives.
func (r *Room) IsRemote(p Participant) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ended == "" && r.remote.set[p]
}

// HasRemotes reports whether the room has a remote.
func (r *Room) HasRemotes() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.remote.set) > 0
}

// PokeRemotes tells the remotes that the teacher's run moved.
func (r *Room) PokeRemotes() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pokeRemotesLocked()
}

func (r *Room) pokeRemotesLocked() {
	for p := range r.remote.set {
		p.Poke()
	}
}

// Pair opens a pairing secret for a remote, given the teacher's key (which
// the remote that pairs is given): valid until now+PairFor, once. A new
// secret replaces the one before.
func (r *Room) Pair(key string, now time.Time) (string, error) {
	if !r.CheckKey(key) {
		return "", refuse("bad-key", nil, "that is not this class's teacher link")
	}
	secret := newKey(16)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ended != "" {
		return "", refuse("no-class", map[string]any{"code": r.code}, "the class has ended")
	}
	r.remote.pairHash = sha256.Sum256([]byte(secret))
	r.remote.pairKey, r.remote.pairUntil = key, now.Add(PairFor)
	return secret, nil
}

// HoldsPair reports whether secret is the room's open pairing secret at
// now, without spending it (Table.Find's proof).
func (r *Room) HoldsPair(secret string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pairOpenLocked(secret, now)
}

// UsePair spends the pairing secret: the teacher's key when secret is the
// room's open one at now, else "".
func (r *Room) UsePair(secret string, now time.Time) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.pairOpenLocked(secret, now) {
		return ""
	}
	key := r.remote.pairKey
	r.remote.pairKey, r.remote.pairUntil = "", time.Time{}
	return key
}

func (r *Room) pairOpenLocked(secret string, now time.Time) bool {
	if r.ended != "" || r.remote.pairUntil.IsZero() || now.After(r.remote.pairUntil) {
		return false
	}
	h := sha256.Sum256([]byte(secret))
	return subtle.ConstantTimeCompare(h[:], r.remote.pairHash[:]) == 1
}
