#!/usr/bin/env bash
# The server's load test (internal/loadtest): 300 browser sessions, each
# taking 10 requests a second through the built-in lessons (steps, with
# seeks, steps back and faults mixed in) for 60 s, against the real server
# in its own process on loopback. It prints the step round trip (p50, p99),
# the server's RSS, goroutines and open files, then checks that the server
# returns to its idle baseline once every socket is closed. Not part of
# scripts/test.sh. Override with LOCKSTEP_LOAD_SESSIONS, LOCKSTEP_LOAD_RATE,
# LOCKSTEP_LOAD_SECONDS; LOCKSTEP_LOAD_GOGC, _GODEBUG, _GOMEMLIMIT and
# _GOMAXPROCS set those variables for the server alone
# (LOCKSTEP_LOAD_GODEBUG=gctrace=1 prints its collections).
set -euo pipefail
cd "$(dirname "$0")/.."
LOCKSTEP_LOAD=1 exec go test -count=1 -run '^TestLoad$' -v -timeout 10m ./internal/loadtest/
