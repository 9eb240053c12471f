package sim

import (
	"crypto/sha1"
	"encoding/hex"
	"strings"
)

// NameScripts tells the world the names of Lua scripts by their SHA1 (in
// lower-case hex, as EVALSHA takes it): the events of an EVALSHA of one, or
// of an EVAL of its body, carry the name in Script and show it in their
// canonical line (EVALSHA compare_and_delete.lua 1 lock 7f3a). Call it
// before the run starts.
func (w *World) NameScripts(bySHA map[string]string) {
	for sha, name := range bySHA {
		w.scripts[strings.ToLower(sha)] = name
	}
}

// scriptName is the name of the script an EVAL or EVALSHA command runs, or
// "" for any other command or a script the world was not told of.
func (w *World) scriptName(cmd []string) string {
	switch {
	case strings.EqualFold(cmd[0], "evalsha"):
		return w.scripts[strings.ToLower(cmd[1])]
	case strings.EqualFold(cmd[0], "eval"):
		sum := sha1.Sum([]byte(cmd[1]))
		return w.scripts[hex.EncodeToString(sum[:])]
	}
	return ""
}
