#!/usr/bin/env bash
# The etcd lessons (visualizer test --etcd), RUNS times in a row (default
# 20) on the embedded etcd and RUNS times against Debian's etcd-server
# (started here on a free loopback port with a 10 ms heartbeat and a
# 100 ms election timeout, so 1 s leases are granted as asked). Each run
# is every etcd lesson with its expected verdict, then one more run of
# etcd-pause-past-lease to see when A's Session.Done fired against B's
# acquisition. Prints one line per run and a tally per server; exits 1 if
# any lesson failed, keeping the output in $OUT (default
# /tmp/lockstep-etcd-series).
#
#   scripts/etcd-series.sh        # 20 runs on each server
#   scripts/etcd-series.sh 5      # 5 runs on each
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
out=${OUT:-/tmp/lockstep-etcd-series}
mkdir -p "$out"
go build -o "$out/visualizer" ./cmd/visualizer

etcd_pid=""
data=""
stop() {
  if [ -n "$etcd_pid" ]; then kill "$etcd_pid" 2>/dev/null || true; wait "$etcd_pid" 2>/dev/null || true; fi
  if [ -n "$data" ]; then rm -rf "$data"; fi
}
trap stop EXIT

# series NAME WHERE: RUNS runs of the lessons on the server WHERE names.
failed=0
series() {
  local name=$1 where=$2 ok=0 bad=0 late=0 early=0 none=0
  for i in $(seq "$runs"); do
    local start log
    start=$(date +%s)
    log="$out/$name-$i.txt"
    if "$out/visualizer" test --etcd "$where" >"$log" 2>&1; then
      ok=$((ok + 1)); status=ok
    else
      bad=$((bad + 1)); failed=1; status=FAILED
    fi
    "$out/visualizer" run etcd-pause-past-lease --etcd "$where" >"$out/$name-$i-pause.txt" 2>&1 || true
    local got done
    got=$(grep -n ' mark B acquired job' "$out/$name-$i-pause.txt" | head -1 | cut -d: -f1)
    done=$(grep -n ' mark A session-done job' "$out/$name-$i-pause.txt" | head -1 | cut -d: -f1)
    if [ -z "$done" ]; then none=$((none + 1)); elif [ "$done" -gt "${got:-0}" ]; then late=$((late + 1)); else early=$((early + 1)); fi
    echo "$name run $i: $status in $(( $(date +%s) - start ))s (load $(cut -d' ' -f1 /proc/loadavg)) $(grep -c '^ok ' "$log") ok, $(grep -c '^FAIL ' "$log" || true) FAIL"
    grep '^FAIL ' "$log" || true
  done
  echo "$name: $ok of $runs runs passed every lesson; A's Session.Done after B's acquisition in $late, before in $early, never in $none"
}

series embedded embedded

if command -v etcd >/dev/null; then
  data=$(mktemp -d /tmp/lockstep-etcd-XXXXXX)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  peer=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  etcd --data-dir "$data" --name lockstep \
    --listen-client-urls "http://127.0.0.1:$port" --advertise-client-urls "http://127.0.0.1:$port" \
    --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
    --initial-cluster "lockstep=http://127.0.0.1:$peer" \
    --heartbeat-interval 10 --election-timeout 100 >"$out/etcd-server.log" 2>&1 &
  etcd_pid=$!
  for _ in $(seq 50); do
    if curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
    sleep 0.1
  done
  echo "etcd-server $(etcd --version | head -1 | cut -d' ' -f3) at 127.0.0.1:$port"
  series debian "http://127.0.0.1:$port"
else
  echo "etcd-server is not installed: the external series is skipped"
fi
exit "$failed"
