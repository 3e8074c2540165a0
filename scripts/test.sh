#!/usr/bin/env bash
# Runs Cairn's tests, installing what they need first when the machine lacks it (the servers,
# the other git implementations, a browser: scripts/install-deps.sh --tests) and making the
# other git implementations the tests open stores with (pygit2 and dulwich from PyPI in a
# virtual environment, the JGit client compiled; reused when already made).
#
#   bash scripts/test.sh              every test: what CI runs
#   bash scripts/test.sh --quick      the unit and single-device tests (CONTRIBUTING.md says
#                                     when they are enough): no other devices, no faults
#                                     injected, no fleet of servers
#   bash scripts/test.sh --filter X   any of swift test's options, passed on
set -euo pipefail
cd "$(dirname "$0")/.."
# The test targets of the quick tier: formats, libgit2's calls, merging, tokens, merge stories
# through the library, the store on one device and the tool on one device.
quick='^(GitFormatTests|GitTests|CairnMergeTests|CairnIdentityTests|CairnTestingTests|CairnCoreTests|CairnFirestoreTests|CairnCLITests)\.'
bash scripts/install-deps.sh --tests
# The token tests of the quick tier mint their tokens with PyJWT from this environment too.
bash scripts/git-clients.sh prepare
swift build --build-tests
if [ "${1:-}" = --quick ]; then
    shift
    swift test --skip-build --filter "$quick" "$@"
else
    swift test --skip-build "$@"
fi
