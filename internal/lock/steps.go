package lock

// A Piece is one declaration of Source that an acquire or a release runs:
// in File, the function or method Name as the runtime names it
// ((*setNXLock).Lock, NoLock.Lock, deleteIfOwner: sim.Site.Func), or a
// package variable (a library's script: luaObtain); with no Name, the
// whole of File (a Lua script under scripts/).
type Piece struct {
	File string `json:"file"`
	Name string `json:"name,omitempty"`
}

// Steps are the code of an algorithm's acquire and of its release, each
// in the order a reader follows it: the method a client calls first, then
// the helpers and scripts that send its commands. The card for a user's
// setup shows them beside the user's own steps (What to use instead);
// a test holds every catalog lock to declaring both, each piece to being
// in Source, and every command a run's acquire or release sends to being
// issued from one of its pieces.
type Steps struct {
	Acquire []Piece `json:"acquire"`
	Release []Piece `json:"release"`
}

// fn and script write a piece.
func fn(file, name string) Piece { return Piece{File: file, Name: name} }
func script(file string) Piece   { return Piece{File: "scripts/" + file} }

// The pieces several locks share.
var (
	setNXAcquire = []Piece{fn("setnx.go", "(*setNXLock).Lock"), fn("setnx.go", "(*setNXLock).setNX")}
	cadRelease   = []Piece{fn("setnx.go", "(*setNXLock).unlockOwned"), fn("setnx.go", "deleteIfOwner"), script("compare_and_delete.lua")}
)

// steps declares each algorithm's Steps, by id.
var steps = map[string]Steps{
	"no-lock":          {[]Piece{fn("nolock.go", "NoLock.Lock")}, []Piece{fn("nolock.go", "NoLock.Unlock")}},
	"local-mutex":      {[]Piece{fn("localmutex.go", "(*LocalMutexLock).Lock")}, []Piece{fn("localmutex.go", "(*LocalMutexLock).Unlock")}},
	"watch-multi-exec": {[]Piece{fn("watch.go", "(*WatchMultiExec).Lock"), fn("watch.go", "(*WatchMultiExec).Transact")}, []Piece{fn("watch.go", "(*WatchMultiExec).Unlock")}},
	"setnx-no-expiry":  {[]Piece{fn("setnx_noexpiry.go", "(*SetNXNoExpiry).Lock"), fn("lock.go", "setnx")}, []Piece{fn("setnx_noexpiry.go", "(*SetNXNoExpiry).Unlock")}},
	"setnx-then-expire": {[]Piece{fn("setnx_expire.go", "(*SetNXThenExpire).Lock"), fn("lock.go", "setnx")},
		[]Piece{fn("setnx_expire.go", "(*SetNXThenExpire).Unlock")}},
	"setnx-getset-timestamp": {[]Piece{fn("getset.go", "(*SetNXGetSet).Lock"), fn("getset.go", "(*SetNXGetSet).takeOver")},
		[]Piece{fn("getset.go", "(*SetNXGetSet).Unlock")}},
	"set-nx-ex-blind-del": {setNXAcquire, []Piece{fn("setnx.go", "(*SetNXBlindDel).Unlock")}},
	"owner-check-get-del": {setNXAcquire, []Piece{fn("ownercheck.go", "(*OwnerCheckGetDel).Unlock")}},
	"lua-compare-delete":  {setNXAcquire, append([]Piece{fn("setnx.go", "(*LuaCompareDelete).Unlock")}, cadRelease...)},
	"watch-release":       {setNXAcquire, []Piece{fn("ownercheck.go", "(*WatchRelease).Unlock")}},
	"reentrant-hash": {[]Piece{fn("reentrant.go", "(*Reentrant).Lock"), script("reentrant_lock.lua")},
		[]Piece{fn("reentrant.go", "(*Reentrant).Unlock"), script("reentrant_unlock.lua")}},
	"reentrant-thread-id": {[]Piece{fn("reentrant.go", "(*Reentrant).Lock"), script("reentrant_lock_pttl.lua")},
		[]Piece{fn("reentrant.go", "(*Reentrant).Unlock"), script("reentrant_unlock_pttl.lua")}},
	"watchdog": {[]Piece{fn("reentrant.go", "(*Reentrant).Lock"), script("reentrant_lock.lua"), fn("reentrant.go", "(*Reentrant).startWatchdog"), script("watchdog_renew.lua")},
		[]Piece{fn("reentrant.go", "(*Reentrant).Unlock"), script("reentrant_unlock.lua")}},
	"replica-failover": {append([]Piece{fn("failover.go", "(*ReplicaFailover).Lock")}, setNXAcquire[1]),
		append([]Piece{fn("failover.go", "(*ReplicaFailover).Unlock")}, cadRelease...)},
	"redlock":          {[]Piece{fn("redlock.go", "(*Redlock).Lock")}, []Piece{fn("redlock.go", "(*Redlock).Unlock"), fn("redlock.go", "(*Redlock).release"), fn("setnx.go", "deleteIfOwner"), script("compare_and_delete.lua")}},
	"fencing-token":    {[]Piece{fn("fencing.go", "(*FencingToken).Lock"), script("fencing_lock.lua")}, append([]Piece{fn("fencing.go", "(*FencingToken).Unlock")}, cadRelease[1:]...)},
	"mysql-unique-key": {[]Piece{fn("mysql.go", "(*MySQLUniqueKey).Lock")}, []Piece{fn("mysql.go", "(*MySQLUniqueKey).Unlock")}},
	"redsync": {[]Piece{fn("library_redsync.go", "(*Redsync).Lock"), fn("redsync/mutex.go", "(*Mutex).lockContext"), fn("redsync/mutex.go", "(*Mutex).acquire")},
		[]Piece{fn("library_redsync.go", "(*Redsync).Unlock"), fn("redsync/mutex.go", "(*Mutex).UnlockContext"), fn("redsync/mutex.go", "(*Mutex).release"), fn("redsync/scripts.go", "deleteScript")}},
	"redislock": {[]Piece{fn("library_redislock.go", "(*Redislock).Lock"), fn("redislock/redislock.go", "(*Client).Obtain"), fn("redislock/redislock.go", "(*Client).obtain"), fn("redislock/redislock.go", "luaObtain")},
		[]Piece{fn("library_redislock.go", "(*Redislock).Unlock"), fn("redislock/redislock.go", "(*Lock).Release"), fn("redislock/redislock.go", "luaRelease")}},
}

// StepsOf is the code of an algorithm's acquire and release (false for
// an id that declares none).
func StepsOf(id string) (Steps, bool) {
	s, ok := steps[id]
	return s, ok
}
