#!/usr/bin/env bash
# The school load test (internal/loadtest, TestLoadSchool; issue 36):
# classes behind a few shared addresses (a school's NAT each), teachers
# stepping and seeking, and on every address one hostile client guessing
# join codes and opening classes. It checks that every right join gets in
# and every student follows her teacher, and prints a bystander's step
# round trip (p50, p99), the hostile clients' outcomes and the server's
# RSS. Not part of scripts/test.sh.
#   bash scripts/load-school.sh            # 10 classes of 40 on 4 addresses
#   bash scripts/load-school.sh 4 30 2     # 4 classes of 30 on 2 addresses
# Override the run's length with LOCKSTEP_SCHOOL_SECONDS (default 30).
set -euo pipefail
cd "$(dirname "$0")/.."
export LOCKSTEP_SCHOOL_CLASSES="${1:-10}" LOCKSTEP_SCHOOL_STUDENTS="${2:-40}" LOCKSTEP_SCHOOL_ADDRESSES="${3:-4}"
LOCKSTEP_LOAD_SCHOOL=1 exec go test -count=1 -run '^TestLoadSchool$' -v -timeout 10m ./internal/loadtest/
