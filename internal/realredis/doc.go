// Package realredis runs Lockstep's nodes on real redis-server processes
// instead of embedded miniredis: a sim.Backend that dials TCP, a pacer that
// ties the virtual clock to the wall clock (a real server expires keys on
// its own clock), URL parsing with the loopback rule, the per-session key
// prefix and its clean-up, and a helper that starts redis-server processes
// (for tests, and for the replication lesson).
//
// Everything a session writes lives under its prefix; the backend reads key
// state through its own connection, which the timeline never shows, and
// removes the session's keys when it closes. docs/real-redis.md says how to
// run it and what differs from embedded Redis.
package realredis
