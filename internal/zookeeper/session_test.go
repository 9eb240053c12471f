package zookeeper

import (
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/sim"
)

// The holder's session is a TTL bar beside the lock. Argued before it
// ran: in zookeeper-frozen-holder A takes the lock with a 500 ms session
// and freezes for 2 s; before it freezes its client has heard the server
// (its session's answer, the create's reply), so A's session, logged
// beside the lock A holds, carries an end at most 500 ms after a reply A
// heard; while A is frozen no frame passes its proxy, so no later state
// of A's session moves the end
// on: the bar runs down to it, and the server's expiry of A's node comes
// at or after that end (the server expires sessions by its own clock, once
// a tick); frozen A hears no ping's reply.
func TestTheHoldersSessionIsTheLocksBar(t *testing.T) {
	t.Parallel()
	evs := play(t, lesson(t, "zookeeper-frozen-holder"))
	expired := first(evs, func(e *sim.Event) bool { return e.Kind == sim.KindExpire })
	freeze := first(evs, func(e *sim.Event) bool {
		return e.Kind == sim.KindFault && e.Client == "A" && e.Name == string(sim.FaultPause)
	})
	if expired == nil || freeze == nil {
		t.Fatalf("want A's freeze and its node's expiry, got %v, %v", freeze, expired)
	}
	var ends []int64
	for _, e := range evs[:expired.Seq-1] {
		for _, k := range e.Keys {
			if k.Key == SessionKey && k.Owner == "A" {
				if k.Expire <= 0 || k.TTL < 0 || k.TTL > 500 {
					t.Errorf("#%d: A's session, while A holds, should carry its end and at most 500ms left, got %+v", e.Seq, k)
				}
				ends = append(ends, k.Expire)
			}
		}
	}
	if len(ends) == 0 {
		t.Fatal("no state of A's session while A held the lock")
	}
	end := time.Duration(ends[len(ends)-1]) * time.Millisecond
	if end > freeze.T+600*time.Millisecond || expired.T < end {
		t.Errorf("A's session should end by its last hearing before the freeze at %s (+500ms), and its node expire after that end: end %s, expiry %s", freeze.T, end, expired.T)
	}
	for _, e := range evs[freeze.Seq:expired.Seq] {
		if e.Kind == sim.KindReply && e.Client == "A" && e.Thread == "ping" {
			t.Errorf("#%d: frozen A heard a ping's reply", e.Seq)
		}
	}
}
