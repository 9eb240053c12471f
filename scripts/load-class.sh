#!/usr/bin/env bash
# The class load test (internal/loadtest, TestLoadClass): classes of
# students against the real server in its own process on loopback. Each
# teacher steps once a second; every student's socket reports when the
# step reaches it (its own world replayed to the teacher's cursor); then
# every student answers a question within 5 s and every answer must be
# counted. It prints the step-to-every-screen latency (p50, p99, max) and
# the server's RSS. Not part of scripts/test.sh.
#   bash scripts/load-class.sh            # one class of 300
#   bash scripts/load-class.sh 10 30      # ten classes of 30
# Override the run's length with LOCKSTEP_CLASS_SECONDS (default 30) and
# the lesson with LOCKSTEP_CLASS_LESSON (default redlock-clock-jump).
set -euo pipefail
cd "$(dirname "$0")/.."
export LOCKSTEP_CLASS_ROOMS="${1:-1}" LOCKSTEP_CLASS_STUDENTS="${2:-300}"
LOCKSTEP_LOAD_CLASS=1 exec go test -count=1 -run '^TestLoadClass$' -v -timeout 10m ./internal/loadtest/
