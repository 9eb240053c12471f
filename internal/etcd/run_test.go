package etcd

import (
	"context"
	"slices"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// embedded starts a real etcd server in the process for a test.
func embedded(t *testing.T) *Server {
	t.Helper()
	srv, err := StartEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// play runs lesson id on srv and gives its log.
func play(t *testing.T, srv *Server, id string) []sim.Event {
	t.Helper()
	l, ok := Find(id)
	if !ok {
		t.Fatalf("no lesson %q", id)
	}
	rec, err := Run(context.Background(), srv, l)
	if err != nil {
		t.Fatal(err)
	}
	evs := rec.Events()
	if testing.Verbose() {
		for _, e := range evs {
			t.Log(e.String())
		}
	}
	if got := rec.Verdicts(); !slices.Equal(got, l.Expect) {
		t.Errorf("%s: verdicts %v, want %v", id, got, l.Expect)
	}
	return evs
}

func TestLessonsTrial(t *testing.T) {
	srv := embedded(t)
	for _, l := range Lessons {
		play(t, srv, l.ID)
	}
}
