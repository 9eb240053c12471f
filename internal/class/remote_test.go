package class

import (
	"testing"
	"time"
)

// A pairing secret lets one remote in, within PairFor, and gives it the
// teacher's key; the teacher's key alone opens one, a wrong key does not,
// and a room ended takes every remote and secret with it.
func TestARemotePairsOnceWithinItsTime(t *testing.T) {
	_, rm, teacher, key := openClass(t, roomy)
	now := time.Unix(1_700_000_000, 0)
	if _, err := rm.Pair("not-the-key-at-all", now); err == nil {
		t.Fatal("a pairing opened without the teacher's key")
	}
	secret, err := rm.Pair(key, now)
	if err != nil {
		t.Fatal(err)
	}
	if rm.HoldsPair(secret, now.Add(PairFor+time.Second)) || rm.UsePair(secret, now.Add(PairFor+time.Second)) != "" {
		t.Fatal("the secret let a remote in after PairFor")
	}
	if rm.HoldsPair("a-guess-of-22-letters-", now) {
		t.Fatal("a guess holds the pairing")
	}
	if got := rm.UsePair(secret, now.Add(time.Minute)); got != key {
		t.Fatalf("pairing gave %q, want the teacher's key", got)
	}
	if rm.UsePair(secret, now.Add(time.Minute)) != "" {
		t.Fatal("the secret let a second remote in")
	}
	// A new secret replaces the one before.
	a, _ := rm.Pair(key, now)
	b, _ := rm.Pair(key, now)
	if rm.HoldsPair(a, now) || !rm.HoldsPair(b, now) {
		t.Fatal("the second pairing did not replace the first")
	}

	refused(t, "the teacher as its own remote", rm.AddRemote(teacher), "remote-teacher")
	phone := newDesk("school")
	if err := rm.AddRemote(phone); err != nil {
		t.Fatal(err)
	}
	for range MaxRemotes - 1 {
		if err := rm.AddRemote(newDesk("school")); err != nil {
			t.Fatal(err)
		}
	}
	refused(t, "a remote past the cap", rm.AddRemote(newDesk("school")), "remotes-full")
	if err := rm.AddRemote(phone); err != nil {
		t.Fatalf("a remote again: %v", err)
	}
	// The remote is told what the teacher sees change: a count, a question.
	before := phone.pokes.Load()
	rm.Recount()
	rm.SetHide(true)
	if phone.pokes.Load()-before < 2 {
		t.Fatalf("the remote was poked %d times for a count and a hide, want 2", phone.pokes.Load()-before)
	}
	rm.End("teacher-ended")
	if rm.IsRemote(phone) || rm.HoldsPair(b, now) {
		t.Fatal("the room ended, and its remote or secret stays")
	}
}
