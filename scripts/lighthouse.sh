#!/usr/bin/env bash
# Lighthouse against the app, offline: builds and starts the server on a
# loopback port, runs Lighthouse (from the npm registry) on the page with
# the desktop and the mobile settings, RUNS times each, alternating, and
# prints each run's scores (performance, accessibility, best practices),
# its metrics and when the first lesson was drawn (the page's
# lockstep-first-lesson mark), then the median of each. Not part of CI: the
# figures follow the machine's load (say it when you quote them).
#
# Lighthouse is not installed by the project. Install it once, e.g.
#   npm install --prefix ~/.cache/lockstep-lighthouse lighthouse@12   # Node 18.20+ (13.x needs Node 22.19+)
#   LIGHTHOUSE=~/.cache/lockstep-lighthouse/node_modules/.bin/lighthouse bash scripts/lighthouse.sh
# It drives the Debian Chromium (CHROME_PATH, default /usr/bin/chromium).
#
#   bash scripts/lighthouse.sh [RUNS]        # RUNS defaults to 3; OUT=dir keeps the reports
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-3}
lh=${LIGHTHOUSE:-lighthouse}
if ! command -v "$lh" >/dev/null 2>&1; then
	echo "lighthouse not found: npm install --prefix ~/.cache/lockstep-lighthouse lighthouse@12, then LIGHTHOUSE=~/.cache/lockstep-lighthouse/node_modules/.bin/lighthouse" >&2
	exit 2
fi
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
port=${PORT:-$((20000 + RANDOM % 20000))}

go build -o "$out/visualizer" ./cmd/visualizer
"$out/visualizer" serve --addr "127.0.0.1:$port" >"$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
	curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
	sleep 0.1
done

echo "lighthouse $("$lh" --version), $("$CHROME_PATH" --version 2>/dev/null | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
	for preset in desktop mobile; do
		args=()
		[ "$preset" = desktop ] && args+=(--preset=desktop)
		"$lh" "http://127.0.0.1:$port/" "${args[@]}" --quiet --output=json --output-path="$out/$preset-$i.json" \
			--only-categories=performance,accessibility,best-practices \
			--chrome-flags="--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync" \
			|| echo "lighthouse $preset run $i failed" >&2
	done
done

node - "$out" "$runs" <<'EOF'
const fs = require('fs');
const [dir, runs] = process.argv.slice(2);
const med = (xs) => { const s = xs.filter((x) => x != null).sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : null; };
const f = (x, d = 2) => (x == null ? '—' : Number(x).toFixed(d));
for (const preset of ['desktop', 'mobile']) {
  const rows = [];
  for (let i = 1; i <= Number(runs); i++) {
    let r;
    try { r = JSON.parse(fs.readFileSync(`${dir}/${preset}-${i}.json`, 'utf8')); } catch { continue; }
    const a = r.audits, mark = ((a['user-timings'] && a['user-timings'].details && a['user-timings'].details.items) || []).find((x) => x.name === 'lockstep-first-lesson');
    rows.push({
      perf: r.categories.performance.score, a11y: r.categories.accessibility.score, bp: r.categories['best-practices'].score,
      fcp: a['first-contentful-paint'].numericValue, lcp: a['largest-contentful-paint'].numericValue,
      tbt: a['total-blocking-time'].numericValue, cls: a['cumulative-layout-shift'].numericValue,
      first: mark ? mark.startTime : null, bytes: a['total-byte-weight'].numericValue,
    });
  }
  console.log(`\n${preset} (${rows.length} runs): performance accessibility best-practices | FCP LCP TBT (ms) CLS | first lesson drawn (ms, the page's mark) | bytes`);
  const line = (n, x) => console.log(`${n.padEnd(7)} ${f(x.perf)} ${f(x.a11y)} ${f(x.bp)} | ${f(x.fcp, 0)} ${f(x.lcp, 0)} ${f(x.tbt, 0)} ${f(x.cls, 3)} | ${f(x.first, 0)} | ${f(x.bytes, 0)}`);
  rows.forEach((x, i) => line('run ' + (i + 1), x));
  if (rows.length) {
    const m = {};
    for (const k of Object.keys(rows[0])) m[k] = med(rows.map((x) => x[k]));
    line('median', m);
  }
}
EOF
echo "reports: $out"
