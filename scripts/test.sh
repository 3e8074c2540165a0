#!/usr/bin/env bash
# Runs every test of Cairn, installing libgit2-dev first if the machine lacks it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
