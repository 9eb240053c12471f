#!/usr/bin/env bash
# The whole catalog on real redis-server processes, RUNS times in a row
# (default 20), with BUSY busy loops (default 2) spinning beside it, as on
# a loaded machine. Each run is TestCatalogOnRealRedis (every lesson, six at
# a time, with its declared verdicts) followed by
# TestExpireEventsAreTheServersOwn (the log's expire events are the ones
# Redis reported). Prints one line per run and a tally; exits 1 if any run
# failed, keeping its output in $OUT (default /tmp/lockstep-series).
#
#   scripts/realredis-series.sh            # 20 runs, 2 busy loops
#   scripts/realredis-series.sh 5 0        # 5 runs on an idle machine
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
busy=${2:-2}
out=${OUT:-/tmp/lockstep-series}
mkdir -p "$out"
command -v redis-server >/dev/null || { echo "redis-server is not installed"; exit 2; }

go test -c -o "$out/realredis.test" ./internal/realredis

pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT
for _ in $(seq "$busy"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "$(date -u +%H:%M:%S) $runs runs, $busy busy loops beside them, load average: $(cut -d' ' -f1-3 /proc/loadavg)"

failed=0
for i in $(seq "$runs"); do
  start=$(date +%s)
  if (cd internal/realredis && CI=1 "$out/realredis.test" -test.count=1 -test.v \
      -test.run '^(TestCatalogOnRealRedis|TestExpireEventsAreTheServersOwn)$') >"$out/run-$i.txt" 2>&1; then
    echo "run $i: ok in $(( $(date +%s) - start ))s (load $(cut -d' ' -f1 /proc/loadavg))"
  else
    failed=$((failed + 1))
    echo "run $i: FAILED in $(( $(date +%s) - start ))s (load $(cut -d' ' -f1 /proc/loadavg)), output in $out/run-$i.txt:"
    grep -E -- '--- FAIL|_test.go:[0-9]+:' "$out/run-$i.txt" | grep -v 'real time$' | head -20 || true
  fi
done
echo "$((runs - failed)) of $runs runs gave every declared verdict, with $busy busy loops beside them"
[ "$failed" -eq 0 ]
