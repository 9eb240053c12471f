// Package lock holds the distributed-lock algorithms of the lesson catalog
// as real go-redis v9 code, with the exact commands and Lua scripts of the
// source documents.
//
// Each algorithm is a Locker built from a Config and its typed options, a
// struct such as SetNXOptions or RedlockOptions whose nil value means its
// documented defaults. The Config carries the narrow Redis interface the
// locks use (the go-redis methods they call; a *redis.Client satisfies
// it), an injected Clock — a lock never reads the wall clock or sleeps for
// real — the Threads a watchdog runs on, the owner token, and an optional
// Observer that sees the lock's marks, owned values and fencing tokens.
// Each Lua script is a file under scripts/, embedded and bound once to a
// redis.Script variable.
//
// The registry (Algorithms, Lookup) describes each algorithm, the seed it
// comes from and the flaw it teaches, and says what it can be built as
// (New, and NewOptimistic for the lock-free WATCH algorithm). Its
// parameters, what a scenario's params: may set, are derived from the
// fields of its options, and Info.Decode is the one decoder of those
// values into the options: the scenario validator and the lock agree by
// construction.
package lock
