// Package loadtest holds the server's load test: hundreds of browser
// sessions stepping through the built-in lessons at once, against the real
// server in its own process, on loopback. It is not part of the regular
// test run; scripts/load.sh runs it (see docs/performance.md).
package loadtest
