#!/usr/bin/env bash
# Every schedule a search found, on real redis-server processes, RUNS times
# in a row (default 10): docs/explore-found.yaml (explore's finds on the
# lessons) and docs/choosing-a-lock.yaml (the report card's
# counterexamples), each file run by visualizer test --redis on five fresh
# servers (a master and replica pair is started for each run that needs
# one), with BUSY busy loops (default 0) spinning beside them. Prints, per
# scenario, in how many runs it ended with its declared verdicts (its
# expect:, or its real_redis: where it declares one), and every scenario
# below 9 of RUNS; exits 1 if there is one. Outputs stay in $OUT (default
# /tmp/lockstep-found-series).
#
#   scripts/realredis-found-series.sh          # 10 runs of each file
#   scripts/realredis-found-series.sh 3 2      # 3 runs, 2 busy loops
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
busy=${2:-0}
out=${OUT:-/tmp/lockstep-found-series}
mkdir -p "$out"
rm -f "$out"/run-*.txt
command -v redis-server >/dev/null || { echo "redis-server is not installed"; exit 2; }
command -v redis-cli >/dev/null || { echo "redis-cli is not installed"; exit 2; }
go build -o "$out/visualizer" ./cmd/visualizer

pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap stop EXIT
for _ in $(seq "$busy"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done

# Five servers on free loopback ports, empty, without persistence.
urls=()
port=$((20000 + $$ % 20000))
while [ ${#urls[@]} -lt 5 ]; do
  port=$((port + 1))
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi # taken
  mkdir -p "$out/redis-$port"
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$out/redis-$port" \
    >"$out/redis-$port.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
  urls+=("redis://127.0.0.1:$port")
done
servers=$(IFS=,; echo "${urls[*]}")
echo "$(date -u +%H:%M:%S) $runs runs of each file on $servers, $busy busy loops, load average: $(cut -d' ' -f1-3 /proc/loadavg)"

for f in docs/explore-found.yaml docs/choosing-a-lock.yaml; do
  name=$(basename "$f" .yaml)
  for i in $(seq "$runs"); do
    start=$(date +%s)
    "$out/visualizer" test --redis "$servers" --file "$f" >"$out/run-$name-$i.txt" 2>&1 || true
    echo "$name run $i: $(tail -1 "$out/run-$name-$i.txt") in $(( $(date +%s) - start ))s (load $(cut -d' ' -f1 /proc/loadavg))"
  done
done

# The tally: per scenario, the runs that gave its declared verdicts.
cat "$out"/run-*.txt | awk -v runs="$runs" '
  /^ok   / { id = $2; sub(/:$/, "", id); ok[id]++; seen[id] = 1 }
  /^FAIL / { id = $2; sub(/:$/, "", id); seen[id] = 1; if (!(id in why)) { why[id] = $0 } }
  END {
    n = 0; low = 0
    for (id in seen) {
      n++
      if (ok[id] + 0 < 9 * runs / 10) { low++; printf "below 9 of 10: %s: %d of %d (%s)\n", id, ok[id] + 0, runs, why[id] }
    }
    printf "%d scenarios, %d of them gave their declared verdicts in fewer than 9 of 10 runs\n", n, low
    exit low > 0
  }'
