#!/usr/bin/env bash
# etcd-server-pause, RUNS times in a row (default 12): each run starts an
# etcd process of its own (Debian's etcd-server), stops it 3 s while A
# holds the lock and resumes it. Prints one line per run (its verdict, the
# branch the run says it took, when A's Session.Done fired against the
# resume, the machine's load) and the tally; exits 1 if a run did not end
# with mutual-exclusion, keeping the logs in $OUT (default
# /tmp/lockstep-etcd-server-pause).
#
#   scripts/etcd-server-pause-series.sh       # 12 runs
#   scripts/etcd-server-pause-series.sh 20
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-12}
out=${OUT:-/tmp/lockstep-etcd-server-pause}
mkdir -p "$out"
command -v etcd >/dev/null || { echo "the etcd server program is not installed: apt-get install etcd-server"; exit 1; }
go build -o "$out/visualizer" ./cmd/visualizer
ok=0 dropped=0 kept=0 during=0 after=0
for i in $(seq "$runs"); do
  log="$out/run-$i.txt"
  load=$(cut -d' ' -f1 /proc/loadavg)
  "$out/visualizer" run etcd-server-pause >"$log" 2>&1 || true
  verdict=$(grep '^verdict: ' "$log" | cut -d' ' -f2- || true)
  [ "$verdict" = mutual-exclusion ] && ok=$((ok + 1))
  if grep -q 'pause-outcome -- This run: the server revoked' "$log"; then branch=dropped; dropped=$((dropped + 1)); else branch=kept; kept=$((kept + 1)); fi
  done_at=$(grep -n ' mark A session-done job' "$log" | head -1 | cut -d: -f1)
  resume_at=$(grep -n ' fault etcd server-resume' "$log" | head -1 | cut -d: -f1)
  if [ -n "$done_at" ] && [ -n "$resume_at" ] && [ "$done_at" -lt "$resume_at" ]; then when="during the stop"; during=$((during + 1)); else when="after the resume"; after=$((after + 1)); fi
  b=$(grep ' mark B enter job' "$log" | awk '{print $2}')
  echo "run $i: ${verdict:-no verdict} (load $load) A's lease $branch; A's Session.Done $when; B entered at ${b:-never}"
done
echo "$ok of $runs runs ended with mutual-exclusion; A's lease dropped in $dropped, kept in $kept; A's Session.Done during the stop in $during, after the resume in $after"
[ "$ok" = "$runs" ]
