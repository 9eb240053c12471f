package report

import (
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
)

func probe(t *testing.T, id string) *Probe {
	t.Helper()
	a, ok := lock.Lookup(id)
	if !ok {
		t.Fatalf("no lock %q", id)
	}
	p, err := RunProbe(a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The round trips of each lock are read from a run of it alone, not typed
// in. From the code of each: SET NX PX takes the lock in one round trip,
// a Lua compare-and-delete releases in one; GET-then-DEL releases in two;
// the WATCH release takes three (WATCH, GET, then MULTI/DEL/EXEC sent
// together); SETNX then EXPIRE acquires in two; Redlock asks its three
// masters at once, three commands in one round trip each way; the
// fencing lock's script takes the lock and draws its token in one.
func TestProbeRoundTrips(t *testing.T) {
	for _, tc := range []struct {
		id               string
		acq, rel         int
		acqCmds, relCmds int
	}{
		{"set-nx-ex-blind-del", 1, 1, 1, 1},
		{"lua-compare-delete", 1, 1, 1, 1},
		{"owner-check-get-del", 1, 2, 1, 2},
		{"watch-release", 1, 3, 1, 3},
		{"setnx-then-expire", 2, 1, 2, 1},
		{"redlock", 1, 1, 3, 3},
		{"fencing-token", 1, 1, 1, 1},
		{"mysql-unique-key", 1, 1, 1, 1},
	} {
		p := probe(t, tc.id)
		if p.Acquire != tc.acq || p.Release != tc.rel || p.AcquireCommands != tc.acqCmds || p.ReleaseCommands != tc.relCmds {
			t.Errorf("%s: acquire %d round trips (%d commands), release %d (%d); want %d (%d), %d (%d)", tc.id,
				p.Acquire, p.AcquireCommands, p.Release, p.ReleaseCommands, tc.acq, tc.acqCmds, tc.rel, tc.relCmds)
		}
	}
}

// What a lock needs is read from the same run: the scripts it calls, the
// masters it reaches, the tokens it hands out, the database it writes.
func TestProbeNeeds(t *testing.T) {
	for _, tc := range []struct {
		id    string
		check func(p *Probe) bool
		want  string
	}{
		{"lua-compare-delete", func(p *Probe) bool { return p.Lua && p.Masters == 1 && !p.Tokens && p.Expires }, "Lua, one master, a lease"},
		{"set-nx-ex-blind-del", func(p *Probe) bool { return !p.Lua && p.Masters == 1 && p.Expires }, "no Lua, one master, a lease"},
		{"setnx-no-expiry", func(p *Probe) bool { return !p.Expires && p.Locks }, "a lock without a lease"},
		{"redlock", func(p *Probe) bool { return p.Lua && p.Masters == 3 }, "Lua, three masters"},
		{"fencing-token", func(p *Probe) bool { return p.Tokens && p.Lua }, "tokens and Lua"},
		{"mysql-unique-key", func(p *Probe) bool { return p.SQL && p.Masters == 0 && p.Network }, "the database only"},
		{"local-mutex", func(p *Probe) bool { return p.Locks && !p.Network }, "a lock and nothing on the network"},
		{"no-lock", func(p *Probe) bool { return !p.Locks && !p.Network }, "no lock, nothing sent by it"},
		{"watch-multi-exec", func(p *Probe) bool { return !p.Locks && p.Watch && p.Network }, "no lock, WATCH/MULTI/EXEC"},
	} {
		if p := probe(t, tc.id); !tc.check(p) {
			t.Errorf("%s: want %s, got %+v", tc.id, tc.want, *p)
		}
	}
}
