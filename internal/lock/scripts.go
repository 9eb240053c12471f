package lock

import (
	_ "embed"

	"github.com/redis/go-redis/v9"
)

// The Lua scripts of the catalog, each in its own file under scripts/ and
// bound once to a *redis.Script (EVALSHA, then EVAL on NOSCRIPT).
var (
	//go:embed scripts/compare_and_delete.lua
	compareAndDeleteLua string
	//go:embed scripts/fencing_lock.lua
	fencingLockLua string
	//go:embed scripts/reentrant_lock.lua
	reentrantLockLua string
	//go:embed scripts/reentrant_lock_pttl.lua
	reentrantLockPTTLLua string
	//go:embed scripts/reentrant_unlock.lua
	reentrantUnlockLua string
	//go:embed scripts/reentrant_unlock_pttl.lua
	reentrantUnlockPTTLLua string
	//go:embed scripts/watchdog_renew.lua
	watchdogRenewLua string

	// compareAndDelete deletes KEYS[1] only if it holds ARGV[1] (000 ④).
	compareAndDelete = redis.NewScript(compareAndDeleteLua)
	// fencingLock is SET KEYS[1] ARGV[1] NX PX ARGV[2] and, if it took the
	// lock, INCR KEYS[2]: the new lease's fencing token (row 16).
	fencingLock = redis.NewScript(fencingLockLua)
	// reentrantLock is 000 ⑤'s acquire: HINCRBY and EXPIRE, 1 if held.
	reentrantLock = redis.NewScript(reentrantLockLua)
	// reentrantLockPTTL is 002's acquire: HINCRBY and PEXPIRE, -1 if
	// held, else the lock's PTTL.
	reentrantLockPTTL = redis.NewScript(reentrantLockPTTLLua)
	// reentrantUnlock is 000 ⑤'s release: HINCRBY -1, DEL at 0.
	reentrantUnlock = redis.NewScript(reentrantUnlockLua)
	// reentrantUnlockPTTL is 002's release.
	reentrantUnlockPTTL = redis.NewScript(reentrantUnlockPTTLLua)
	// watchdogRenew is 000 ⑥'s renewal: HEXISTS, then EXPIRE.
	watchdogRenew = redis.NewScript(watchdogRenewLua)
)

// scriptFiles names each script by its file, for the captions of the
// timeline (ScriptNames).
var scriptFiles = map[string]*redis.Script{
	"compare_and_delete.lua":    compareAndDelete,
	"fencing_lock.lua":          fencingLock,
	"reentrant_lock.lua":        reentrantLock,
	"reentrant_lock_pttl.lua":   reentrantLockPTTL,
	"reentrant_unlock.lua":      reentrantUnlock,
	"reentrant_unlock_pttl.lua": reentrantUnlockPTTL,
	"watchdog_renew.lua":        watchdogRenew,
}

// libraryScripts names the libraries' scripts (rows 18-19) by their
// variables, package-qualified, keyed by SHA1: redsync sends EVALSHA with
// the hash written beside each script (scripts.go), redislock with the
// one go-redis computes. A test of internal/lesson runs every library
// operation and finds each script it sends named here.
var libraryScripts = map[string]string{
	"e950836ed1e694540c503ef9972b8de518044d3b": "redsync.deleteScript",
	"d75bb8b5bd13532ddedd17762e772346e39b321e": "redsync.touchScript",
	"b6b55c439e02c6f52ffb8be7ec8c0d0ac816ea79": "redsync.touchWithSetNXScript",
	"80a1b5f2cfccec3b7119ba7721d2127682b691a7": "redislock.luaObtain",
	"a7aba3bc5d6e99b3003da8b9d80a63b9f4092ecf": "redislock.luaRefresh",
	"cf0e94b2e9ffc7e04395cf88f7583fc309985910": "redislock.luaRelease",
}

// ScriptNames maps each script's SHA1 to its file name (compare_and_delete.lua)
// or, for a library's, to its package-qualified variable
// (redsync.deleteScript): the engine shows EVAL and EVALSHA of a script by
// that name.
func ScriptNames() map[string]string {
	out := make(map[string]string, len(scriptFiles)+len(libraryScripts))
	for name, s := range scriptFiles {
		out[s.Hash()] = name
	}
	for sha, name := range libraryScripts {
		out[sha] = name
	}
	return out
}
