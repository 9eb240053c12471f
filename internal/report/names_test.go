package report

import (
	"testing"

	"github.com/lockstep/lockstep/internal/lock"
)

// Every lock of the registry has a name in words in both languages, none
// its id and no two alike: the card shows the name and keeps the id for
// its tooltip.
func TestEveryLockHasAName(t *testing.T) {
	seen := map[string]string{}
	for _, a := range lock.Algorithms {
		n := Name(a.ID)
		if n.En == "" || n.Zh == "" || n.En == a.ID || n.Zh == a.ID || n.En == n.Zh {
			t.Errorf("%s is named %+v: want words in English and in Chinese", a.ID, n)
		}
		for _, s := range []string{n.En, n.Zh} {
			if other, ok := seen[s]; ok {
				t.Errorf("%s and %s are both named %q", a.ID, other, s)
			}
			seen[s] = a.ID
		}
	}
	if got := Name("not-a-lock"); got.En != "not-a-lock" {
		t.Errorf("a lock with no name reads %+v, want its id", got)
	}
}

// A ✓ holds within the card's two clients of one request each, and for a
// lock given a lease, that lease: the fencing lock takes the card's ttl
// (1s); the MySQL row and the in-process mutex take none (a row with no
// expiry, a mutex in memory), so no lease is said beside their ✓.
func TestWithinSaysTheBound(t *testing.T) {
	for _, tc := range []struct{ lock, en, zh, long string }{
		{"fencing-token", "2×1 · 1s", "2×1 · 1秒", "within 2 clients making 1 request each, lease 1s"},
		{"redsync", "2×1 · 1s", "2×1 · 1秒", "within 2 clients making 1 request each, lease 1s"},
		{"mysql-unique-key", "2×1", "2×1", "within 2 clients making 1 request each"},
		{"local-mutex", "2×1", "2×1", "within 2 clients making 1 request each"},
	} {
		a, _ := lock.Lookup(tc.lock)
		p, err := RunProbe(a)
		if err != nil {
			t.Fatal(err)
		}
		short, long := (&Row{Algorithm: tc.lock, Probe: p}).Within()
		if short.En != tc.en || short.Zh != tc.zh || long.En != tc.long || long.Zh == "" {
			t.Errorf("%s holds within %+v (%+v), want %q, %q (%q)", tc.lock, short, long, tc.en, tc.zh, tc.long)
		}
	}
}
