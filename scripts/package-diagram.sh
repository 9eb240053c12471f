#!/usr/bin/env bash
# Redraws docs/architecture.md's package diagram from the code's imports
# (go list), which TestPackageMap holds the doc to.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -run '^TestPackageMap$' . -update
