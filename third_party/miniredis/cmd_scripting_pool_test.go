package miniredis

import (
	"sync/atomic"
	"testing"

	"github.com/alicebob/miniredis/v2/proto"
)

// Interpreters are kept between script calls, and a call leaves nothing
// for the next: whatever a script changes in the globals, the libraries
// or the metatables, the next script sees a fresh interpreter's world.
func TestLuaPoolLeavesNothingBehind(t *testing.T) {
	_, c := runWithClient(t)

	for _, tc := range []struct {
		change, look, want string
	}{
		{`string.leak = 1 return 1`, `return tostring(string.leak)`, proto.String("nil")},
		{`tostring = function() return "hijacked" end return 1`, `return tostring(7)`, proto.String("7")},
		{`rawset(_G, "g", 1) return 1`, `return type(rawget(_G, "g"))`, proto.String("nil")},
		{`redis = nil return 1`, `return redis.call("PING")`, proto.Inline("PONG")},
		{`redis.extra = 1 return 1`, `return type(redis.extra)`, proto.String("nil")},
		{`cjson.encode = nil return 1`, `return cjson.encode({1})`, proto.String("[1]")},
		{`package.loaded.string = nil return 1`, `return type(package.loaded.string)`, proto.String("table")},
		{`getmetatable("").__index = {} return 1`, `return ("x"):rep(2)`, proto.String("xx")},
		{`setmetatable(_G, nil) return 1`, `x = 1 return 1`, proto.Error("ERR Error compiling script (new function): user_script:1: Script attempted to create global variable 'x' script: 7a8d4b1c0c18a8ab9c84bb0a2f0d0bf9d3b2e2a7, on @user_script:1.")},
	} {
		for i := 0; i < 3; i++ { // whichever interpreter the pool gives
			if _, err := c.Do("EVAL", tc.change, "0"); err != nil {
				t.Fatalf("%s: %v", tc.change, err)
			}
			got, err := c.Do("EVAL", tc.look, "0")
			if err != nil {
				t.Fatal(err)
			}
			if tc.want[0] == '-' {
				if got[0] != '-' {
					t.Errorf("after %s, %s: %q, want an error", tc.change, tc.look, got)
				}
				continue
			}
			if got != tc.want {
				t.Errorf("after %s, %s: %q, want %q", tc.change, tc.look, got, tc.want)
			}
		}
	}
}

// A script that changes nothing keeps its interpreter for the next call.
func TestLuaPoolKeepsCleanInterpreters(t *testing.T) {
	_, c := runWithClient(t)
	if _, err := c.Do("EVAL", `return redis.call("SET", KEYS[1], ARGV[1])`, "1", "k", "v"); err != nil {
		t.Fatal(err)
	}
	before := atomic.LoadInt64(&luaStatesMade)
	for i := 0; i < 50; i++ {
		got, err := c.Do("EVAL", `local v = redis.call("GET", KEYS[1]) return {v, #ARGV, tostring(redis.LOG_DEBUG)}`, "1", "k", "a", "b")
		if err != nil {
			t.Fatal(err)
		}
		if got != proto.Array(proto.String("v"), proto.Int(2), proto.String("0")) {
			t.Fatalf("call %d: %q", i, got)
		}
	}
	// sync.Pool may drop what it is given (a quarter of it under the race
	// detector, all of it at two collections): most calls, not all, reuse.
	if made := atomic.LoadInt64(&luaStatesMade) - before; made >= 25 {
		t.Errorf("%d interpreters made for 50 clean calls, want most calls to reuse one", made)
	}
}
