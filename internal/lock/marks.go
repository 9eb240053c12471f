package lock

// ownMarks are the marks each algorithm's own code writes (Config.mark, or
// the engine on its behalf: a local mutex's waits, a WAIT that blocks),
// besides the lock steps every request writes; register copies them into
// Info.Marks. A test runs the catalog and a generated corpus and finds
// every mark a client wrote among its algorithm's.
var ownMarks = map[string][]string{
	"local-mutex":            {"local-wait", "local-lock", "local-unlock"},
	"watch-multi-exec":       {"retry", "gave-up"},
	"setnx-then-expire":      {"repair"},
	"setnx-getset-timestamp": {"expired"},
	"reentrant-hash":         watchdogMarks,
	"reentrant-thread-id":    watchdogMarks,
	"watchdog":               watchdogMarks,
	"replica-failover":       {"replicated", "not-replicated", "wait-blocked"},
	"redlock":                {"quorum", "no-quorum", "too-late"},
	"fencing-token":          {"token"},
	"redsync":                {"valid-until", "no-extend", "extended", "extend-failed"},
	"redislock":              {"no-refresh", "refreshed", "refresh-failed"},
}

// watchdogMarks are the marks of the re-entrant locks' renewal (their
// watchdog, when it runs).
var watchdogMarks = []string{"no-watchdog", "renewed", "renew-failed", "renew-lost"}
