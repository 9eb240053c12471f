#!/usr/bin/env bash
# The ZooKeeper runs (internal/zookeeper: a frozen holder past its session,
# a lost create reply with and without protection, contention, a server
# pause, and the lessons with their verdicts), RUNS times in a row on a real ZooKeeper
# server, with BUSY_LOOPS busy loops beside them (a loaded machine). They
# run in real time on ZooKeeper's own clock,
# so the question is whether the same run gives the same verdict every
# time: each run prints PASS or FAIL and the last line is the tally. The
# server pause lesson's verdict is the same either way the race on the
# resume goes; each run says which branch it took, and the tally of
# branches comes before the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
busy=${2:-2}
pids=()
for _ in $(seq "$busy"); do (while :; do :; done) & pids+=($!); done
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
bin=$(mktemp /tmp/lockstep-zookeeper.XXXXXX.test)
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -f "$bin"' EXIT
go test -c -o "$bin" ./internal/zookeeper
pass=0 expired=0 lived=0
for i in $(seq "$runs"); do
  # ZK_SKIP (a test name pattern) leaves tests out, to compare series
  # ZK_RUN (a test name pattern) runs only those tests
  if out=$("$bin" ${ZK_SKIP:+-test.skip "$ZK_SKIP"} -test.count=1 -test.v -test.run "${ZK_RUN:-TestContention|TestAFrozen|TestALost|TestAServerPause|TestCurator604|TestZooKeeper}" 2>&1); then
    pass=$((pass + 1))
    branch=other
    if echo "$out" | grep -q 'every session expired on the resume: This run'; then branch=expired-all expired=$((expired + 1)); fi
    if echo "$out" | grep -q 'every session lived on: This run'; then branch=lived-on lived=$((lived + 1)); fi
    echo "run $i: PASS $(echo "$out" | grep -o 'B acquired [0-9.]*m*s after A froze' | head -1); server pause lesson: $branch"
  else
    # the server pause lesson's own result, whatever else failed
    lesson=$(echo "$out" | grep -o -- '--- [A-Z]*: TestZooKeeperServerPauseSaysWhichBranchItTook' | cut -d' ' -f2 || true)
    echo "run $i: FAIL (the server pause lesson: ${lesson:-not run})"
    echo "$out" | grep -E -- '--- FAIL|_test.go:[0-9]+: ' | grep -v 'every session\|B acquired\|A learned' | head -8
  fi
done
echo "server pause lesson: every session expired in $expired, every session lived on in $lived, of $pass passed runs"
echo "zookeeper series: $pass passed, $((runs - pass)) failed"
