#!/usr/bin/env bash
# Benchmarks Cairn against git and SQLite and writes BENCHMARKS.md (see its header for how
# each workload is measured). Builds in release mode with the Swift runtime and libgit2 linked
# in, as scripts/install.sh installs the tool. Arguments go to the benchmark program:
#   bash scripts/bench.sh                                  # stores of 1,000 and 10,000 documents
#   bash scripts/bench.sh --sizes 1000,10000,100000        # and 100,000 (several minutes more)
#   bash scripts/bench.sh --only checkpoint,documents --rounds 5 --output -
#   bash scripts/bench.sh --only history --checkpoints 10000 --output -   # a long history
#   bash scripts/bench.sh --only serving --output -        # cairn server run against lighttpd, and a load run
#   bash scripts/bench.sh --only push-cost --output -      # where a server's CPU for one push goes
set -euo pipefail
cd "$(dirname "$0")/.."
export CAIRN_STATIC_LIBGIT2=1
bash scripts/install-deps.sh --tests
swift build -c release --static-swift-stdlib --product cairn >&2
swift build -c release --static-swift-stdlib --product cairn-hook >&2
swift build -c release --static-swift-stdlib --product cairn-server >&2
swift build -c release --static-swift-stdlib --product cairn-bench >&2
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
exec "$bin/cairn-bench" --command-line "bash scripts/bench.sh${*:+ $*}" "$@"
