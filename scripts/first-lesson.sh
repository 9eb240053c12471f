#!/usr/bin/env bash
# The page's first lesson and a class's first steps, measured in the
# Debian Chromium through the DevTools protocol, without Lighthouse:
# builds the server, starts it on a loopback port, and runs
# TestMeasureFirstLesson against it: five cold loads (a fresh browser
# context each: no cache), each the page's lockstep-first-lesson mark in
# ms from the navigation's start; then a class (its teacher a plain socket,
# as her laptop would be another machine): a student's fresh page that
# joins at step 0 and one that joins at step 6, and for each of the six
# steps after, the ms from the teacher's request to the student's page
# having it, having handled it and starting the frame that draws it.
# Prints each figure and the median of the loads. Bounded: the test
# is stopped after 5 minutes. Not part of CI: the figures follow the
# machine's load (printed; say it when you quote them).
#
#   bash scripts/first-lesson.sh
set -euo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp -d)
go build -o "$out/visualizer" ./cmd/visualizer
go test -c -o "$out/e2e.test" ./internal/e2e
port=$((20000 + RANDOM % 20000))
"$out/visualizer" serve --addr "127.0.0.1:$port" >"$out/serve.out" 2>"$out/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$out"' EXIT
until curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do sleep 0.05; done

echo "$(/usr/bin/chromium --version 2>/dev/null | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
(cd internal/e2e && LOCKSTEP_URL="http://127.0.0.1:$port" timeout 300 "$out/e2e.test" -test.run '^TestMeasureFirstLesson$' -test.count=1) >"$out/figures" || { cat "$out/figures"; exit 1; }
awk '/^first-lesson / { print "first lesson drawn, cold load " $2 ": " $3 " ms" }
     /^class-step / { print "class joined at step " $2 ", step " $3 ": the page has it " $4 " ms, handled " $5 " ms, drawing " $6 " ms" }' "$out/figures"
loads=$(awk '/^first-lesson / { print $3 }' "$out/figures" | sort -n)
n=$(wc -l <<<"$loads")
echo "first lesson drawn, median of $n cold loads: $(sed -n "$(( (n + 1) / 2 ))p" <<<"$loads") ms"
echo "load average after $(cut -d' ' -f1-3 /proc/loadavg)"
