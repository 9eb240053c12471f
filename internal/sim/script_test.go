package sim

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"testing"
)

// A reader of the timeline wants to know which script a client ran, not
// its SHA1: EVALSHA and EVAL of a named script show the name in the
// canonical line, and the JSON command keeps what Redis ran.
func TestEvalOfANamedScriptShowsItsName(t *testing.T) {
	body := "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"
	sum := sha1.Sum([]byte(body))
	sha := hex.EncodeToString(sum[:])
	w := New(Config{})
	w.NameScripts(map[string]string{strings.ToUpper(sha): "compare_and_delete.lua"})
	for _, c := range []struct {
		cmd  []string
		want string
	}{
		{[]string{"EVALSHA", sha, "1", "lock", "7f3a"}, "EVALSHA compare_and_delete.lua 1 lock 7f3a"},
		{[]string{"EVAL", body, "1", "lock", "7f3a"}, "EVAL compare_and_delete.lua 1 lock 7f3a"},
		{[]string{"EVALSHA", strings.Repeat("0", 40), "1", "lock", "7f3a"}, "EVALSHA " + strings.Repeat("0", 40) + " 1 lock 7f3a"},
		{[]string{"EVAL", "return 1", "0"}, `EVAL "return 1" 0`},
		{[]string{"GET", sha}, "GET " + sha},
	} {
		w.Emit(Event{Kind: KindSend, Client: "A", Node: "redis", Cmd: c.cmd})
		e := w.Log()[len(w.Log())-1]
		if got := e.CmdText(); got != c.want {
			t.Errorf("%v shows as %q, want %q", c.cmd, got, c.want)
		}
		if strings.Join(e.Cmd, " ") != strings.Join(c.cmd, " ") {
			t.Errorf("the event's command changed: %v, want %v", e.Cmd, c.cmd)
		}
	}
}
