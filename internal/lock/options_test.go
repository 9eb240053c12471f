package lock

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// valueOf is the value of options' field bound to the parameter name.
func valueOf(o Options, name string) any {
	for _, f := range o.fields() {
		if f.name == name {
			return f.value()
		}
	}
	return nil
}

// For every algorithm, the parameters a scenario may set are exactly the
// fields its options bind, with its defaults; a misspelt name is an error;
// and a value set by name lands in its field.
func TestOptionsAgreeWithParams(t *testing.T) {
	for _, a := range Algorithms {
		o, err := a.Decode(nil)
		if err != nil {
			t.Fatalf("%s: decode nothing: %v", a.ID, err)
		}
		if o == nil {
			if len(a.Params) > 0 {
				t.Errorf("%s: %d parameters but no options", a.ID, len(a.Params))
			}
		} else if got, want := paramsOf(o), a.Params; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: params of the defaults\n got %v\nwant %v", a.ID, got, want)
		}
		if _, err := a.Decode(map[string]any{"retyr": "1s"}); err == nil || !strings.Contains(err.Error(), `unknown parameter "retyr"`) {
			t.Errorf("%s: a misspelt parameter gave %v, want unknown parameter", a.ID, err)
		}
		if _, ok := a.Param("retry"); ok {
			o, err := a.Decode(map[string]any{"retry": "7ms"})
			if err != nil {
				t.Fatal(err)
			}
			if got := valueOf(o, "retry"); got != 7*time.Millisecond {
				t.Errorf("%s: retry 7ms decoded to %v", a.ID, got)
			}
		}
		if _, ok := a.Param("key"); ok {
			if _, err := a.Decode(map[string]any{"key": 3}); err == nil {
				t.Errorf("%s: key 3 decoded without error", a.ID)
			}
		}
	}
}

// Each algorithm builds without options: nil options are its defaults.
func TestNilOptionsAreDefaults(t *testing.T) {
	for _, a := range Algorithms {
		if a.New(Config{}) == nil {
			t.Errorf("%s: no lock without options", a.ID)
		}
	}
	l := NewLuaCompareDelete(Config{}, nil).(*LuaCompareDelete)
	if !reflect.DeepEqual(l.o, DefaultSetNXOptions()) {
		t.Errorf("nil options gave %+v, want %+v", l.o, DefaultSetNXOptions())
	}
	if got := KeyOf(DefaultRedlockOptions()); got != "lock" {
		t.Errorf("KeyOf(Redlock defaults) = %q, want lock", got)
	}
	if got := KeyOf(nil); got != "" {
		t.Errorf("KeyOf(nil) = %q, want empty", got)
	}
}

// A mode parameter takes only the values its lock knows: any other would
// quietly run the default mode.
func TestDecodeRefusesUnknownModes(t *testing.T) {
	for id, raw := range map[string]map[string]any{
		"reentrant-hash":         {"owner": "uuid:thred"},
		"watchdog":               {"script": "003"},
		"setnx-getset-timestamp": {"recover": "dell"},
	} {
		info, ok := Lookup(id)
		if !ok {
			t.Fatalf("no algorithm %s", id)
		}
		if _, err := info.Decode(raw); err == nil || !strings.Contains(err.Error(), "is none of") {
			t.Errorf("%s %v: want an error naming the known values, got %v", id, raw, err)
		}
	}
}

// Duration reads a client's duration parameter as its lock sees it: the
// value typed, else the row's default; nothing for a name the algorithm
// does not have or a parameter that is no duration.
func TestDurationIsTypedOrDefault(t *testing.T) {
	a, _ := Lookup("lua-compare-delete")
	if d, ok := a.Duration(map[string]any{"ttl": "1s"}, "ttl"); !ok || d != time.Second {
		t.Errorf("typed ttl: %v %v", d, ok)
	}
	if d, ok := a.Duration(nil, "retry"); !ok || d != 100*time.Millisecond {
		t.Errorf("default retry: %v %v", d, ok)
	}
	r, _ := Lookup("redsync")
	for _, name := range []string{"ttl", "tries"} {
		if d, ok := r.Duration(nil, name); ok {
			t.Errorf("redsync %s: %v, want none", name, d)
		}
	}
	if d, ok := a.Duration(map[string]any{"ttl": "soon"}, "ttl"); ok {
		t.Errorf("a bad ttl reads %v", d)
	}
}

// The TTL the re-entrant scripts and SETNX-then-EXPIRE really set is the
// one a run shows: 000's scripts round 1500ms up to 2s, 002's keep it,
// go-redis's EXPIRE truncates 1500ms to 1s and lifts 500ms to 1s; a whole
// number of seconds is no rounding.
func TestRoundedTTL(t *testing.T) {
	for _, tc := range []struct {
		algo   string
		params map[string]any
		runs   time.Duration
		ok     bool
	}{
		{"reentrant-hash", map[string]any{"ttl": 1500 * time.Millisecond}, 2 * time.Second, true},
		{"watchdog", map[string]any{"ttl": 2100 * time.Millisecond}, 3 * time.Second, true},
		{"reentrant-thread-id", map[string]any{"ttl": 1500 * time.Millisecond}, 1500 * time.Millisecond, false}, // script 002
		{"reentrant-hash", map[string]any{"ttl": 1500 * time.Millisecond, "script": "002"}, 1500 * time.Millisecond, false},
		{"reentrant-hash", map[string]any{"ttl": 3 * time.Second}, 3 * time.Second, false},
		{"setnx-then-expire", map[string]any{"ttl": 1500 * time.Millisecond}, time.Second, true},
		{"setnx-then-expire", map[string]any{"ttl": 500 * time.Millisecond}, time.Second, true},
		{"lua-compare-delete", map[string]any{"ttl": 1500 * time.Millisecond}, 0, false}, // PX: milliseconds
	} {
		algo, _ := Lookup(tc.algo)
		o, err := algo.Decode(tc.params)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.algo, tc.params, err)
		}
		_, runs, ok := RoundedTTL(o)
		if ok != tc.ok || ok && runs != tc.runs {
			t.Errorf("%s %v: runs %v (rounded %v), want %v (rounded %v)", tc.algo, tc.params, runs, ok, tc.runs, tc.ok)
		}
	}
}
