#!/usr/bin/env bash
# The server's memory test (internal/loadtest TestMemoryBudget): 50 browser
# sessions load the largest scenario a session's budget admits (16 pools of
# 64 threads, 1,616 threads) at once against the real server in its own
# process on loopback, and run it as far as it goes. A load the server's
# budget has no room for is refused (server-memory), every run stops at a
# budget, and the server's RSS stays within twice its 512 MiB budget; then
# every socket closes and the sessions are evicted. Then TestMemorySeeking
# (issue 36, finding 4): 20 sessions seek a long lesson to step 50,000,
# /healthz read as they run (the estimate, the live memory measured, what
# the runtime holds, RSS): each stops at a budget, and the runtime holds
# no more than its soft limit and a tenth. About a minute of both cores;
# not part of scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
LOCKSTEP_MEMORY=1 exec go test -count=1 -run '^TestMemory(Budget|Seeking)$' -v -timeout 5m ./internal/loadtest/
