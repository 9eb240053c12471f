// Package embedded is the default backend of Lockstep's nodes: an embedded
// miniredis server reached over in-memory connections, whose clock the
// engine sets before every command. It implements sim.Backend beside the
// engine, as package realredis does for real redis-server processes; the
// engine itself imports neither.
package embedded
