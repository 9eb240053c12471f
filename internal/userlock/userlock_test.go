package userlock

import (
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/lock"
)

// CheckLua places a syntax error at the script's own line and column: the
// start of the offending token (the parser gives its last character), or
// just after the script's last character when the script ends too soon.
func TestCheckLuaPlacesTheError(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
	}{
		{"x = = 1", 1, 5},
		{"if x then\n  return 1\nelse\n  return = 2\nend", 4, 10},
		{"redis.call('get' KEYS[1])", 1, 18},
		{"return 1 +", 1, 11},
		{"return 1 +\n\n", 1, 11},
	} {
		e := CheckLua(tc.src)
		if e == nil || e.Line != tc.line || e.Col != tc.col {
			t.Errorf("%q: got %+v, want %d:%d", tc.src, e, tc.line, tc.col)
		}
	}
	if e := CheckLua("return redis.call('del', KEYS[1])"); e != nil {
		t.Errorf("a good script: %v", e)
	}
}

// Placeholders are replaced from the request's token and the lock's
// values: $ttl in milliseconds, $ttl_s in whole seconds rounded up (EXPIRE
// of 1500ms is 2s, never 1s: the lease is never cut short).
func TestPlaceholders(t *testing.T) {
	info := Declare(&Spec{Name: "mine", Key: "k", TTL: time.Second, Retry: time.Millisecond,
		Params: []lock.Param{{Name: "shard", Kind: lock.Int, Default: 3}}})
	o, err := info.Decode(map[string]any{"ttl": "1500ms"})
	if err != nil {
		t.Fatal(err)
	}
	x := expander{token: "tok", v: o.(*lock.Values)}
	got := x.all([]string{"$key", "$token", "$ttl", "$ttl_s", "$key:$shard", "$nope"})
	want := []string{"k", "tok", "1500", "2", "k:3", "$nope"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %q, want %q", i, got[i], want[i])
		}
	}
	if u := Unknown("$key $nope $shard", info.Params[5:]); len(u) != 1 || u[0] != "$nope" {
		t.Errorf("Unknown: got %v, want [$nope]", u)
	}
}
