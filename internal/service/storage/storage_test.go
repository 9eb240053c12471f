package storage

import (
	"errors"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// Fencing storage keeps, per key, the highest token it has accepted: a
// write with an older token, or none, is refused; the same or a newer one
// goes through. Plain storage accepts everything (Kleppmann's "How to do
// distributed locking").
func TestFencingStorageRefusesOlderTokens(t *testing.T) {
	steps := []struct {
		args    []string
		fencing bool // which storage
		refused bool
	}{
		{[]string{"WRITE", "file", "a", "TOKEN", "33"}, true, false},
		{[]string{"WRITE", "file", "b", "TOKEN", "34"}, true, false},
		{[]string{"WRITE", "file", "c", "TOKEN", "33"}, true, true}, // the paused holder's late write
		{[]string{"WRITE", "file", "d", "TOKEN", "34"}, true, false},
		{[]string{"WRITE", "file", "e"}, true, true},
		{[]string{"WRITE", "other", "f", "TOKEN", "1"}, true, false}, // tokens are per key
		{[]string{"WRITE", "file", "g", "TOKEN", "1"}, false, false},
		{[]string{"WRITE", "file", "h"}, false, false},
	}
	fenced, plain := New(true), New(false)
	for i, s := range steps {
		st := plain
		if s.fencing {
			st = fenced
		}
		out := st.Serve(sim.ServiceRequest{Args: s.args})
		if got := errors.Is(out.Err, ErrFenced); got != s.refused {
			t.Errorf("step %d %v (fencing %v): refused = %v, want %v (reply %q)", i, s.args, s.fencing, got, s.refused, out.Reply)
		}
	}
	if got := fenced.state("file").Value; got != "d (highest token 34)" {
		t.Errorf("fencing storage's file: want the last accepted write d under token 34, got %q", got)
	}
}

// A request that is not WRITE key value [TOKEN n] is an error, not a write.
func TestStorageRejectsBadRequests(t *testing.T) {
	s := New(true)
	for _, args := range [][]string{nil, {"READ", "file"}, {"WRITE", "file"}, {"WRITE", "file", "v", "TOKEN", "x"}, {"WRITE", "file", "v", "TOK", "1"}} {
		if out := s.Serve(sim.ServiceRequest{Args: args}); out.Err == nil || errors.Is(out.Err, ErrFenced) {
			t.Errorf("%q: want a usage error, got %v (reply %q)", args, out.Err, out.Reply)
		}
	}
	if got := s.state("file"); got.Exists() {
		t.Errorf("bad requests wrote %+v", got)
	}
}
