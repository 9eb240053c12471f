#!/usr/bin/env bash
# bench-locks.sh [ROUNDS] [BENCHTIME]: correct acquire+release pairs per
# second on a real redis-server, for Lockstep's own compare-and-delete lock
# (internal/lock's lua-compare-delete on the machine's clock, a real
# go-redis client), redislock and redsync on one node; in three workloads:
# one client, 8 clients on their own keys, 8 clients contending for one key
# (a pair counts only if its critical section overlapped no other).
# docs/performance.md reports it. Not in CI.
#
# The ceiling is two round trips a pair: redis-benchmark's SET rate, over 2,
# with one client (for the one-client and the one-key workloads, whose pairs
# cannot overlap in time) and with 8 (for 8 clients on their own keys).
# The machine is shared and its speed drifts, so the script runs in rounds:
# each round measures the ceilings and every contestant, in an order that
# rotates from round to round, and gives its own ratios; it prints the
# median of each over the rounds, and the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
benchtime=${2:-2s}
tmp=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
while redis-cli -p "$port" ping >/dev/null 2>&1; do port=$((port + 1)); done
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no >"$tmp/redis.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
bin=$tmp/lockbench.test
go test -c -o "$bin" ./internal/lockbench
echo "redis-server $(redis-server --version | awk '{print $3}') on 127.0.0.1:$port; $rounds rounds, -benchtime $benchtime; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

contestants=(lockstep redislock redsync)
workloads=(1-client 8-own-keys 8-one-key)
out=$tmp/rounds
ceiling() { # clients -> SET requests per second
	redis-benchmark -p "$port" -c "$1" -n 100000 -t set -q | tr '\r' '\n' | awk '/requests per second/ { print $2 }'
}
for r in $(seq 1 "$rounds"); do
	echo "$r ceiling1 $(ceiling 1)" >>"$out"
	for w in "${workloads[@]}"; do
		for i in 0 1 2; do
			c=${contestants[$(((i + r) % 3))]}
			LOCKSTEP_BENCH_REDIS=127.0.0.1:$port "$bin" -test.run '^$' -test.bench "^BenchmarkLockPairs/$c/$w\$" -test.benchtime "$benchtime" |
				awk -v r="$r" -v name="$c/$w" '/pairs\/s/ { for (i = 1; i < NF; i++) if ($(i + 1) == "pairs/s") print r, name, $i }' >>"$out"
		done
	done
	echo "$r ceiling8 $(ceiling 8)" >>"$out"
done

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %12s %12s %14s\n' "" "pairs/s" "x ceiling" "x best library"
for w in "${workloads[@]}"; do
	cl=ceiling1
	[ "$w" = 8-own-keys ] && cl=ceiling8
	printf '%-22s %12.0f\n' "ceiling $w" "$(awk -v c="$cl" '$2 == c { print $3 / 2 }' "$out" | median)"
	for c in "${contestants[@]}"; do
		rate=$(awk -v n="$c/$w" '$2 == n { print $3 }' "$out" | median)
		vsc=$(awk -v n="$c/$w" -v c="$cl" '$2 == c { ceil[$1] = $3 / 2 } $2 == n { got[$1] = $3 }
			END { for (r in got) if (r in ceil) printf "%.4f\n", got[r] / ceil[r] }' "$out" | median)
		vsb=$(awk -v n="$c/$w" -v w="$w" '$2 == n { got[$1] = $3 }
			$2 == "redislock/" w || $2 == "redsync/" w { if ($3 > best[$1]) best[$1] = $3 }
			END { for (r in got) if (r in best) printf "%.4f\n", got[r] / best[r] }' "$out" | median)
		printf '%-22s %12.0f %12.2f %14.2f\n' "  $c" "$rate" "$vsc" "$vsb"
	done
done
