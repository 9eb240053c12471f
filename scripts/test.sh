#!/usr/bin/env bash
# Lockstep's whole test suite: installs what the tests need when it is
# missing (redis-server, chromium, zbarimg, a JRE and ZooKeeper's jars), then runs formatting and vet checks, every
# Go test under the race detector (browser tests in real headless Chromium,
# real-Redis tests on redis-server processes it starts on loopback), the
# built-in catalog, and a bounded fuzz run of the scenario parser.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs) # node --check on the page's scripts
# A real ZooKeeper server (internal/zookeeper): Debian's headless JRE and
# ZooKeeper's jars (about 230 MB on a fresh machine, mostly the JRE).
command -v java >/dev/null 2>&1 || need+=(default-jre-headless)
[ -f /usr/share/java/zookeeper.jar ] || need+=(libzookeeper-java)
# A QR code scanner, which reads the class's join codes (internal/qr).
command -v zbarimg >/dev/null 2>&1 || need+=(zbar-tools)
# A Chinese font, so that the browser tests' screenshots show the 中文 pages
# as people see them (1.6 MB).
if ! (command -v fc-list >/dev/null 2>&1 && fc-list :lang=zh | grep -q .); then
  need+=(fonts-wqy-microhei)
fi
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  echo "installing: ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted"
  exit 1
fi
go vet ./...
# Linters, pinned, installed from the Go module proxy on first use (into
# the Go bin directory): staticcheck, and golangci-lint with the small
# configuration of .golangci.yml (errcheck, errorlint, revive's shadowed
# builtins). Both must find nothing.
gobin="$(go env GOPATH)/bin"
staticcheck_version=v0.8.2
golangci_version=v2.15.0
if ! "$gobin/staticcheck" -version 2>/dev/null | grep -q "${staticcheck_version#v}"; then
  go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi
if ! "$gobin/golangci-lint" version 2>/dev/null | grep -q "${golangci_version#v}"; then
  go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$golangci_version"
fi
"$gobin/staticcheck" ./...
"$gobin/golangci-lint" run ./...
# The page's scripts parse as the ES modules they are, checked without
# running them (from stdin: node --check on a file takes an .js module for
# CommonJS and passes it unchecked).
for f in web/static/*.js; do
  node --input-type=module --check <"$f" || { echo "$f: syntax error (above)"; exit 1; }
done
# The real-Redis tests run the whole catalog in real time against
# redis-server, with margins of tens of milliseconds: they run after the
# rest, on their own, rather than beside the browser tests on a two-core
# machine. (The browser's own real-Redis test, in internal/e2e, runs two
# lessons with wide margins.)
go test -race -count=1 -timeout 40m $(go list ./... | grep -v '/internal/realredis')
# Embedded Redis is a patched miniredis (third_party/miniredis/PATCH.md): its
# own tests, on the patched copy (a module of its own, outside ./...).
(cd third_party/miniredis && go test -race -count=1 ./...)
# The lock libraries rows 18-19 run as they are, patched (third_party/redsync
# and third_party/redislock, PATCH.md in each): their own tests on the
# copies. redsync's start redis-server processes on Unix sockets (no TCP
# port); one of them saves to dump.rdb when it stops and would load its locks
# next time: it is removed before and after. redislock's use one on 127.0.0.1:6379, started
# here when none listens; they time 50-100ms locks on the wall clock, so
# they run without the race detector's slowdown.
(
  cd third_party/redsync
  rm -f dump.rdb
  trap 'rm -f dump.rdb' EXIT
  go test -race -count=1 ./...
)
(
  if ! redis-cli -p 6379 ping >/dev/null 2>&1; then
    redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no >/dev/null &
    pid=$!
    trap 'kill $pid' EXIT
    for _ in $(seq 50); do redis-cli -p 6379 ping >/dev/null 2>&1 && break; sleep 0.1; done
  fi
  cd third_party/redislock && go test -count=1 ./...
)
go test -race -count=1 -timeout 20m ./internal/realredis/...
# The schedule search's lessons table (docs/explore.md) and its Redlock
# partition search skip themselves under -race (ten times slower, the same
# deterministic result): they run here without it.
go test -count=1 -run 'TestLessonsTable|TestPartitionsAndRestartBreakRedlock' ./internal/explore
# The memory estimate against the heap of a normal build (the race
# detector's heap is bigger), and the runaway search's budgets (a world of
# 16,016 threads, built twice): they skip themselves (or their heap bound)
# under -race.
go test -count=1 -run 'TestCostCalibration|TestTheEstimateFollowsTheLiveHeap|TestHeavySessionsStayWithinTheBudget|TestTheRunawaySearchStaysInItsBudgets' ./internal/server
go run ./cmd/visualizer test
# The report card's doc (docs/choosing-a-lock.md and .yaml) is the card the
# code computes today: checked without the race detector (the whole card,
# about a minute of CPU).
go test -count=1 -run 'TestChoosingALockDoc' ./internal/report
# The card's live rows (etcd, ZooKeeper): fresh real-time runs of every
# cell, without the race detector (go-zookeeper races with itself on
# reconnection, and -race slows the clients past their 1s leases) and
# alone, so that no other package's load lapses a lease.
go test -count=1 -run 'TestLiveRows' ./internal/livecard
# The two checkers (internal/check and its reference) on 3,000 generated
# scenarios beyond the 200 the race run above covers: every algorithm,
# every fault kind. Without the race detector, which would make it slow.
go test -count=1 -run 'TestDifferentialGenerated$' ./internal/check/reference -gen 3000 -gen-seed 2
if grep -rq 'func FuzzParse' internal/scenario 2>/dev/null; then
  # A count, not a duration: with a duration, Go 1.26's fuzz coordinator
  # may fail the run with "context deadline exceeded" as time runs out on a
  # busy machine (golang/go#75804, fixed in Go 1.27), with no failing input.
  go test -run '^$' -fuzz '^FuzzParse$' -fuzztime "${FUZZTIME:-150000x}" ./internal/scenario
  # A scenario's own locks: arbitrary Lua and commands in a declared lock.
  go test -run '^$' -fuzz '^FuzzLocks$' -fuzztime "${FUZZTIME_LOCKS:-5000x}" ./internal/scenario
fi
