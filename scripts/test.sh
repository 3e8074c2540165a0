#!/usr/bin/env bash
# Runs every test of Cairn, installing libgit2-dev first if the machine lacks it, and making the
# other git implementations the tests open stores with (pygit2 and dulwich from PyPI in a
# virtual environment, the JGit client compiled; reused when already made).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/git-clients.sh prepare
swift build --build-tests
swift test --skip-build "$@"
