#!/usr/bin/env bash
# bench-engine.sh [ROUNDS]: the engine's cost per command against the raw
# round trip, as docs/performance.md reports it.
#
# The machine's speed drifts over minutes, more than the difference being
# measured, so the benchmarks run in rounds (every benchmark once per
# round, one after the other) and each round gives its own ratios of engine
# step to raw round trip; the script prints, per benchmark, the median time
# over the rounds and the median of the per-round ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/sim.test out=$tmp/rounds
go test -c -o "$bin" ./internal/sim
for r in $(seq 1 "$rounds"); do
	"$bin" -test.run '^$' -test.bench 'EngineStep|RawRoundTrip' -test.benchtime 1s |
		awk -v r="$r" '/ns\/op/ { name = $1; sub(/-[0-9]+$/, "", name); print r, name, $3 }' >>"$out"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians over $rounds rounds"
for b in $(awk '{ print $2 }' "$out" | sort -u); do
	printf '%-40s %10.0f ns/op\n' "$b" "$(awk -v b="$b" '$2 == b { print $3 }' "$out" | median)"
done
for c in get set evalsha; do
	for e in EngineStep EngineStepInRuns EngineStepNoLog; do
		ratio=$(awk -v e="Benchmark$e/$c" -v raw="BenchmarkRawRoundTrip/$c" '
			$2 == e { eng[$1] = $3 } $2 == raw { rt[$1] = $3 }
			END { for (r in eng) if (r in rt) printf "%.4f\n", eng[r] / rt[r] }' "$out" | median)
		printf '%-40s %6.2fx the raw round trip\n' "$e/$c" "$ratio"
	done
done
