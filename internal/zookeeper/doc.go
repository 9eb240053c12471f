// Package zookeeper runs ZooKeeper for real: the JVM server from Debian's
// libzookeeper-java, started on a free loopback port with a short tick and
// a temporary data directory (Start), a proxy on each client's connection
// that knows ZooKeeper's frames, so that a fault can freeze a holder, cut
// it off, or lose one reply (Proxy), and the lock recipe of ephemeral
// sequential nodes with the holder's fencing token, its node's creation
// zxid, in view (Lock).
//
// ZooKeeper keeps time on its own wall clock (sessions expire by its
// ticks) and its Go client runs its own goroutines (the connection's reader
// and writer, pings): it cannot run under the engine's virtual clock, and
// nothing here is imported by the engine or the lock code. A run on it is
// in real time: the same schedule gives the same verdict, not the same
// milliseconds.
//
// There is no ZooKeeper server written in Go that is real enough: without
// Java, Start says what to install (ErrNoJava), and nothing is faked.
package zookeeper
