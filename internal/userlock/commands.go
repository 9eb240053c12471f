package userlock

import (
	"regexp"
	"slices"
	"strings"
)

// Commands are the commands a declared lock may send, or call from its
// scripts: those on string and hash keys and on a key's expiry, whose
// effect the engine shows as the key's new state and the checker reads
// as who holds it. Lists, sets, streams, blocking commands and Pub/Sub
// are not modelled: a lock using one is refused.
var Commands = []string{
	"DEL", "EXISTS", "EXPIRE", "GET", "GETDEL", "GETSET", "HDEL", "HEXISTS", "HGET", "HGETALL",
	"HINCRBY", "HSET", "HSETNX", "INCR", "INCRBY", "PERSIST", "PEXPIRE", "PTTL", "SET", "SETNX",
	"TIME", "TTL", "UNLINK", "UNWATCH", "WATCH",
}

// TxCommands are the commands that open and close a transaction, which a
// step may send only on a WATCHed connection (its watch: keys).
var TxCommands = []string{"MULTI", "EXEC"}

// Known reports whether cmd is one of Commands, in any case.
func Known(cmd string) bool { return slices.Contains(Commands, strings.ToUpper(cmd)) }

// luaCall finds redis.call and redis.pcall with a literal command name.
var luaCall = regexp.MustCompile(`redis\s*\.\s*p?call\s*\(\s*(?:'([^']*)'|"([^"]*)")`)

// ScriptCommands lists the commands a script calls by a literal name, in
// order, each with its byte offset in the script.
func ScriptCommands(lua string) (names []string, at []int) {
	for _, m := range luaCall.FindAllStringSubmatchIndex(lua, -1) {
		from, to := m[2], m[3]
		if from < 0 {
			from, to = m[4], m[5]
		}
		names = append(names, lua[from:to])
		at = append(at, from)
	}
	return names, at
}
