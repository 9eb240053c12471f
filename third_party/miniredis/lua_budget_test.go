package miniredis

import (
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2/proto"
)

// A script that loops, or builds a string without end, is stopped by its
// budget with an error, and the instance answers the next command: before
// the budget, the first held the instance's mutex for ever.
func TestScriptBudgetStopsRunawayScripts(t *testing.T) {
	m, err := Run()
	ok(t, err)
	defer m.Close()
	c, err := proto.Dial(m.Addr())
	ok(t, err)
	defer c.Close()

	for _, tc := range []struct{ script, want string }{
		{"while true do end", "more than 1000000 instructions"},
		{"local t = {} local i = 0 while true do i = i + 1 t[i] = i end", "more than 1000000 instructions"},
		{"local s = 'x' while true do s = s .. s end", "built a string of"},
		{"return string.rep('x', 1e9)", "would build a string of"},
		{"local s = string.rep('x', 1000000) local t = {} for i = 1, 100 do t[i] = s end return table.concat(t)", "would build a string of"},
		{"return string.format('%999999999d', 1)", "width or precision too long"},
		{"local co = coroutine.wrap(function() while true do end end) co()", "more than 1000000 instructions"},
		{"local co = coroutine.create(function() while true do end end) local _, err = coroutine.resume(co) return err", "more than 1000000 instructions"},
	} {
		done := make(chan string, 1)
		go func() {
			res, err := c.Do("EVAL", tc.script, "0")
			if err != nil {
				res = err.Error()
			}
			done <- res
		}()
		select {
		case res := <-done:
			if strings.Contains(tc.script, "coroutine.resume(co)") {
				// resume returns the error as a value
				if !strings.Contains(res, tc.want) {
					t.Errorf("%s: got %q, want it to say %q", tc.script, res, tc.want)
				}
			} else if !strings.Contains(res, tc.want) || !strings.HasPrefix(res, "-") {
				t.Errorf("%s: got %q, want an error saying %q", tc.script, res, tc.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still running after 20s", tc.script)
		}
		res, err := c.Do("SET", "k", "v")
		ok(t, err)
		equals(t, proto.Inline("OK"), res)
	}
	// a script within its budget runs as before
	res, err := c.Do("EVAL", "local n = 0 for i = 1, 1000 do n = n + i end return n", "0")
	ok(t, err)
	equals(t, proto.Int(500500), res)
	res, err = c.Do("EVAL", "return coroutine.wrap(function(a) return a + 1 end)(41)", "0")
	ok(t, err)
	equals(t, proto.Int(42), res)
}
