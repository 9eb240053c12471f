// Package lock holds the distributed-lock algorithms of the lesson catalog
// as real go-redis v9 code, with the exact commands and Lua scripts of the
// source documents.
//
// Each algorithm is a Locker built from a Config: the narrow Redis interface
// it needs, an injected Clock (it never reads the wall clock or sleeps for
// real) and an owner token. The registry (Algorithms, Lookup) describes each
// algorithm, the seed it comes from, the flaw it teaches and the parameters
// a scenario may set.
package lock
