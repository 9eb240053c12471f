// Package etcd runs etcd's lock, the real unmodified concurrency.Mutex of
// go.etcd.io/etcd/client/v3, against a real etcd server (embedded in the
// process, or external), in real time: a service run.
//
// etcd cannot run under the engine's virtual clock: the server expires
// leases by its own wall clock and the client keeps its lease alive from
// its own goroutines. So a service run is a real-time run: each client is a
// goroutine, every gRPC request and reply it makes is recorded as an event
// (unary and stream client interceptors; a watch's push as an event of its
// own), timestamps are the wall clock since the run's start, and the
// lock's state is read from the server (a watch on the lock's prefix) and
// told to the checker as one key whose owner is the waiter with the lowest
// create revision. Faults go through a pausable TCP proxy on each client's
// connection, and a lost reply through the client's interceptor.
//
// This package is the one place besides real Redis's pacing where a run's
// goroutines are the service's own and not the engine's; internal/sim and
// internal/lock never import it (TestEngineAndLocksArePure).
package etcd
