#!/usr/bin/env bash
# Fuzzes one target with libFuzzer: scripts/fuzz.sh TARGET [libFuzzer options…]
#
#   scripts/fuzz.sh json -runs=1000000
#   scripts/fuzz.sh storeTree -max_total_time=120
#   scripts/fuzz.sh list            # the targets
#
# Builds CairnMerge, CairnMergeLaws and CairnFuzzing with `swiftc -sanitize=fuzzer,address` into
# .build/fuzz/cairn-fuzz (again only when a source changed), copies the committed seeds
# (Tests/Fuzz/Corpus/TARGET) to a scratch corpus (.build/fuzz/corpus/TARGET) and runs there,
# so fuzzing never writes into the repository. Crashes are saved as
# .build/fuzz/artifacts/TARGET-crash-…; add one to the seeds (and fix the code) to keep it tested.
set -euo pipefail

cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh TARGET [libFuzzer options…] (scripts/fuzz.sh list names the targets)}"
shift

if [[ "$target" == list ]]; then
    ls Tests/Fuzz/Corpus
    exit 0
fi

out=.build/fuzz
binary="$out/cairn-fuzz"
mapfile -t merge < <(find Sources/CairnMerge -name "*.swift" | sort)
mapfile -t laws < <(find Sources/CairnMergeLaws -name "*.swift" | sort)
sources=("${merge[@]}" "${laws[@]}" Sources/CairnFuzzing/*.swift Tests/Fuzz/FuzzEntry.swift)
mkdir -p "$out/modules" "$out/artifacts"

newest=$(ls -t "${sources[@]}" scripts/fuzz.sh | head -1)
if [[ ! -x "$binary" || "$newest" -nt "$binary" ]]; then
    echo "building $binary" >&2
    flags=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -warnings-as-errors -use-ld=lld -package-name Cairn)
    swiftc "${flags[@]}" -module-name CairnMerge -emit-module -emit-module-path "$out/modules/CairnMerge.swiftmodule" \
        -emit-library -static -o "$out/libCairnMerge.a" "${merge[@]}"
    swiftc "${flags[@]}" -I "$out/modules" -module-name CairnMergeLaws -emit-module \
        -emit-module-path "$out/modules/CairnMergeLaws.swiftmodule" -emit-library -static -o "$out/libCairnMergeLaws.a" "${laws[@]}"
    swiftc "${flags[@]}" -I "$out/modules" -module-name CairnFuzzing -emit-module \
        -emit-module-path "$out/modules/CairnFuzzing.swiftmodule" -emit-library -static -o "$out/libCairnFuzzing.a" \
        Sources/CairnFuzzing/*.swift
    swiftc "${flags[@]}" -I "$out/modules" -module-name CairnFuzz -o "$binary" Tests/Fuzz/FuzzEntry.swift \
        "$out/libCairnFuzzing.a" "$out/libCairnMergeLaws.a" "$out/libCairnMerge.a"
fi

seeds="Tests/Fuzz/Corpus/$target"
[[ -d "$seeds" ]] || { echo "no seed corpus $seeds; scripts/fuzz.sh list names the targets" >&2; exit 64; }
corpus="$out/corpus/$target"
mkdir -p "$corpus"
cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true

export CAIRN_FUZZ_TARGET="$target"
exec "$binary" -artifact_prefix="$out/artifacts/$target-" "$@" "$corpus"
