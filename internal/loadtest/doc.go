// Package loadtest holds the server's load tests, against the real server
// in its own process, on loopback: hundreds of browser sessions stepping
// through the built-in lessons at once (scripts/load.sh), classes
// (scripts/load-class.sh), 50 sessions loading the largest scenario a
// session admits (scripts/memory.sh), and a storm of sessions searching,
// comparing and stepping (scripts/storm.sh). They are not part of the
// regular test run (see docs/performance.md).
package loadtest
