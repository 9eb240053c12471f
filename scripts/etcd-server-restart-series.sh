#!/usr/bin/env bash
# etcd-server-restart, RUNS times in a row (default 10): each run starts an
# etcd process of its own (Debian's etcd-server), kills it (SIGKILL) as A
# enters and starts it again 1 s later on the same data directory. Prints
# one line per run (its verdict, the branch the run says it took, whether
# A's Session.Done fired, when B entered against A's leave, how long the
# server was down, the machine's load) and the tally; exits 1 if a run's
# verdict is not the one its branch expects (safe when A's lease lived
# through the restart, mutual-exclusion when it ended), keeping the logs in
# $OUT (default /tmp/lockstep-etcd-server-restart).
#
#   scripts/etcd-server-restart-series.sh       # 10 runs
#   scripts/etcd-server-restart-series.sh 20
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
out=${OUT:-/tmp/lockstep-etcd-server-restart}
mkdir -p "$out"
command -v etcd >/dev/null || { echo "the etcd server program is not installed: apt-get install etcd-server"; exit 1; }
go build -o "$out/visualizer" ./cmd/visualizer
ok=0 kept=0 lost=0
for i in $(seq "$runs"); do
  log="$out/run-$i.txt"
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$out/visualizer" run etcd-server-restart >"$log" 2>&1 || true
  verdict=$(grep '^verdict: ' "$log" | cut -d' ' -f2- || true)
  if grep -q "restart-outcome -- This run: A's lease lived through" "$log"; then
    branch=kept; kept=$((kept + 1)); want=safe
  else
    branch=lost; lost=$((lost + 1)); want=mutual-exclusion
  fi
  [ "$verdict" = "$want" ] && ok=$((ok + 1))
  done_a=$(grep -c ' mark A session-done job' "$log" || true)
  crash=$(grep ' fault etcd server-crash' "$log" | awk '{print $2}')
  restart=$(grep ' fault etcd server-restart' "$log" | awk '{print $2}')
  leave=$(grep ' mark A leave job' "$log" | awk '{print $2}')
  b=$(grep ' mark B enter job' "$log" | awk '{print $2}')
  echo "run $i: ${verdict:-no verdict} (load $load) A's lease $branch; A's Session.Done fired: $done_a; server down ${crash:-?}..${restart:-?}; A left at ${leave:-never}, B entered at ${b:-never}"
done
echo "$ok of $runs runs ended with their branch's verdict; A's lease kept in $kept, lost in $lost"
[ "$ok" = "$runs" ]
