#!/usr/bin/env bash
# bench-explore.sh [ROUNDS]: schedule search figures for
# docs/performance.md: the whole catalog as plain runs and as search
# schedules, and the time to find and shrink each target violation.
#
# Every benchmark runs once per round, one after the other; the script
# prints each one's median over the rounds (this machine's speed drifts by
# more than some of the differences measured).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/explore.test out=$tmp/rounds
go test -c -o "$bin" ./internal/explore
for r in $(seq 1 "$rounds"); do
	"$bin" -test.run '^$' -test.bench 'Catalog|FindAndShrink' -test.benchtime 1x |
		awk -v r="$r" '/ns\/op/ { name = $1; sub(/-[0-9]+$/, "", name); print r, name, $3 }' >>"$out"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians over $rounds rounds"
for b in $(awk '{ print $2 }' "$out" | sort -u); do
	printf '%-50s %10.1f ms\n' "$b" "$(awk -v b="$b" '$2 == b { print $3 / 1e6 }' "$out" | median)"
done
