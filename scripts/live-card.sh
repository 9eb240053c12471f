#!/usr/bin/env bash
# The report card's live rows (etcd's Mutex and ZooKeeper's recipe, on their real servers in
# real time): run every cell RUNS times (default 20) and write the tally, with the
# date, the machine and the server, into docs/choosing-a-lock.json and .md (five runs at once, as
# TestLiveRows runs them: more at once starve the leases of a loaded machine). TestLiveRows then
# holds them to the code by verdict class (five fresh runs a cell, in about 40 s).
#
#   bash scripts/live-card.sh [RUNS]
set -euo pipefail
runs=${1:-20}
cd "$(dirname "$0")/.."
go test -count=1 -timeout 30m ./internal/livecard -run TestLiveRows -update -runs "$runs" -v
