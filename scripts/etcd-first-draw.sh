#!/usr/bin/env bash
# The etcd lessons in the browser, measured: builds the server, starts it
# on a loopback port RUNS times, and for each start prints the time until
# it answers, its memory at idle (RSS 4 s after start: no etcd server yet,
# it starts with the first etcd run), the time from start to the first
# event of an etcd lesson drawn in Chromium (the page opened, the lesson
# etcd-two-workers chosen, Step pressed: the embedded etcd starts then),
# the embedded etcd's own start (the server's log line), and the RSS once
# that lesson has run. Not part of CI: the figures follow the machine's
# load (say it when you quote them).
#
#   bash scripts/etcd-first-draw.sh [RUNS]     # RUNS defaults to 3
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/visualizer" ./cmd/visualizer
go test -c -o "$out/e2e.test" ./internal/e2e

rss() { awk '/VmRSS/ { printf "%.1f MB", $2 / 1024 }' "/proc/$1/status"; }
now() { date +%s%3N; }

for i in $(seq "$runs"); do
	port=$((20000 + RANDOM % 20000))
	start=$(now)
	"$out/visualizer" serve --addr "127.0.0.1:$port" >"$out/serve.out" 2>"$out/serve.err" &
	pid=$!
	until curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do sleep 0.01; done
	ready=$(now)
	sleep $(( 4 - (ready - start) / 1000 ))
	idle=$(rss "$pid")
	line=$(cd internal/e2e && LOCKSTEP_URL="http://127.0.0.1:$port" "$out/e2e.test" -test.run '^TestMeasureEtcdFirstDraw$' -test.count=1 | grep '^opened ')
	read -r _ opened _ paged _ loaded _ drawn <<<"$line"
	sleep 1
	after=$(rss "$pid")
	etcd=$(grep -o 'ready in [0-9.]*[mµ]*s' "$out/serve.err" || echo '?')
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	echo "run $i: answers $((ready - start)) ms after start; idle RSS $idle;" \
		"page $((paged - opened)) ms, lesson chosen $((loaded - paged)) ms, first etcd event drawn $((drawn - loaded)) ms after Step (embedded etcd $etcd);" \
		"start to first etcd lesson drawn, clicks without pause: $(( (ready - start) + (drawn - opened) )) ms; RSS after the lesson $after"
done
