#!/usr/bin/env bash
# The storm (internal/loadtest TestStorm): 20 browser sessions searching
# ("Find a bad schedule", again as soon as one ends), 20 comparing long runs
# in a loop and 20 stepping through the lessons (20 steps a second each),
# each from a loopback address of its own, for 60 s against the real server
# (go build ./cmd/visualizer, then serve) in its own process. It prints the
# stepping sessions' round trips and the server's own time over their steps
# (p50, p99, max, as /healthz reports them), the server's RSS, and its
# return to the idle baseline once every socket is closed, with the load
# average. LOCKSTEP_STORM_SECONDS sets the length, LOCKSTEP_STORM_SEARCHERS,
# _COMPARERS and _STEPPERS the numbers (0: none); LOCKSTEP_STORM_SEEKERS adds
# sessions seeking 50,000 steps and back in a loop, LOCKSTEP_STORM_SHUTDOWN=1
# ends it with a SIGTERM under load and times the exit. Not part of
# scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCKSTEP_STORM=1 exec go test -count=1 -run '^TestStorm$' -v -timeout 10m ./internal/loadtest/
