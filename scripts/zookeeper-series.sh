#!/usr/bin/env bash
# The ZooKeeper runs (internal/zookeeper: a frozen holder past its session,
# a lost create reply with and without protection, contention, a server
# pause, and the lessons with their verdicts), RUNS times in a row on a real ZooKeeper
# server, with BUSY_LOOPS busy loops beside them (a loaded machine). They
# run in real time on ZooKeeper's own clock,
# so the question is whether the same run gives the same verdict every
# time: each run prints PASS or FAIL and the last line is the tally.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
busy=${2:-2}
pids=()
for _ in $(seq "$busy"); do (while :; do :; done) & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
go test -c -o /tmp/lockstep-zookeeper.test ./internal/zookeeper
pass=0
for i in $(seq "$runs"); do
  if out=$(/tmp/lockstep-zookeeper.test -test.count=1 -test.v -test.run 'TestContention|TestAFrozen|TestALost|TestAServerPause|TestCurator604|TestZooKeeper' 2>&1); then
    pass=$((pass + 1))
    echo "run $i: PASS $(echo "$out" | grep -o 'B acquired [0-9.]*m*s after A froze' | head -1)"
  else
    echo "run $i: FAIL"
    echo "$out" | grep -E -- '--- FAIL|zookeeper_test.go' | head -5
  fi
done
echo "zookeeper series: $pass passed, $((runs - pass)) failed"
