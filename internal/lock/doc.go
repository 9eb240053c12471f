// Package lock holds the distributed-lock algorithms of the lesson catalog
// as real go-redis v9 code, with the exact commands and Lua scripts of the
// source documents.
//
// Each algorithm is a Locker built from a Config (the narrow Redis
// interface it needs, an injected Clock — it never reads the wall clock or
// sleeps for real — and an owner token) and its typed options, a struct
// such as SetNXOptions or RedlockOptions whose nil value means its
// documented defaults. Each Lua script is a file under scripts/, embedded
// and bound once to a redis.Script variable.
//
// The registry (Algorithms, Lookup) describes each algorithm, the seed it
// comes from and the flaw it teaches. Its parameters, what a scenario's
// params: may set, are derived from the fields of its options, and
// Info.Decode is the one decoder of those values into the options: the
// scenario validator and the lock agree by construction.
package lock
