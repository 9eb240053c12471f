package scenario

import (
	"strings"

	"github.com/lockstep/lockstep/internal/lock"
)

// Commands are the commands the events of a run can carry, as a match's
// cmd: compares them (the first word an event shows, in any case): what
// the clients send to Redis, the SQL database and the storage, what a
// replica applies, what a sweep deletes. A match on any other command
// never fires, and the scenario checker refuses it. A test runs the
// catalog and a generated corpus and finds every command an event carried
// in this list, and every entry of the list in some run.
var Commands = []string{
	"DEL", "EVAL", "EVALSHA", "EXPIRE", "GET", "GETSET", "MULTI", "SADD", "SET", "SETNX",
	"SMEMBERS", "SREM", "TTL", "UNWATCH", "WAIT", "WATCH",
	// The SQL lock's statements as sent, and as the database runs them.
	lock.InsertLock, lock.DeleteLock, "INSERT", "DELETE",
	"WRITE", // the storage's
}

// knownCommand reports whether cmd is one of Commands, in any case.
func knownCommand(cmd string) bool {
	for _, c := range Commands {
		if strings.EqualFold(c, cmd) {
			return true
		}
	}
	return false
}
