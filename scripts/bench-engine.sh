#!/usr/bin/env bash
# bench-engine.sh [ROUNDS]: the engine's cost per command against the raw
# round trip, as docs/performance.md reports it.
#
# The machine's speed drifts over minutes, more than the difference being
# measured, so the benchmarks run in rounds (every benchmark once per
# round, one after the other) and each round gives its own ratios of engine
# step to raw round trip; the script prints, per benchmark, the median time
# over the rounds and the median of the per-round ratios. Each benchmark
# reports two times an operation: the wall clock's (ns/op) and the CPU
# time the process used, every thread's (cpu-ns/op: on a shared machine
# it leaves out the time spent waiting for a core, and counts the garbage
# collector's work on the other core); the ratios are given for both.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/sim.test out=$tmp/rounds
go test -c -o "$bin" ./internal/sim
for r in $(seq 1 "$rounds"); do
	"$bin" -test.run '^$' -test.bench 'EngineStep|RawRoundTrip' -test.benchtime 1s |
		awk -v r="$r" '/ns\/op/ {
			name = $1; sub(/-[0-9]+$/, "", name); cpu = "-"
			for (i = 4; i <= NF; i++) if ($i == "cpu-ns/op") cpu = $(i - 1)
			print r, name, $3, cpu
		}' >>"$out"
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "medians over $rounds rounds: wall clock, CPU"
for b in $(awk '{ print $2 }' "$out" | sort -u); do
	printf '%-40s %10.0f ns/op %10.0f cpu-ns/op\n' "$b" \
		"$(awk -v b="$b" '$2 == b { print $3 }' "$out" | median)" \
		"$(awk -v b="$b" '$2 == b && $4 != "-" { print $4 }' "$out" | median)"
done
# ratio COLUMN ENGINE COMMAND: the median over the rounds of engine / raw
ratio() {
	awk -v col="$1" -v e="Benchmark$2/$3" -v raw="BenchmarkRawRoundTrip/$3" '
		$2 == e && $col != "-" { eng[$1] = $col } $2 == raw && $col != "-" { rt[$1] = $col }
		END { for (r in eng) if (r in rt) printf "%.4f\n", eng[r] / rt[r] }' "$out" | median
}
for c in get set evalsha; do
	for e in EngineStep EngineStepInRuns EngineStepNoLog; do
		printf '%-40s %6.2fx the raw round trip (wall clock), %6.2fx (CPU)\n' "$e/$c" "$(ratio 3 "$e" "$c")" "$(ratio 4 "$e" "$c")"
	done
done
