// Package userlock runs a lock a scenario declares of its own (its locks:
// section): an acquire, a release and optionally an extend, each a
// sequence of Redis commands or a Lua script, with placeholders for the
// lock key, the client's token, the TTL and the lock's parameters, and the
// replies that mean success. Declare makes its lock.Info, which runs as
// real go-redis commands and real Lua (EVALSHA, then EVAL) on whichever
// node the engine gives it; nothing about it is known beyond the
// declaration. The scenario format (internal/scenario) owns the YAML, its
// checks and its positions; this package owns the running, and the checks
// that need the lock's own vocabulary: the commands the engine models
// (Commands), placeholders (Placeholders) and Lua syntax (CheckLua).
package userlock
