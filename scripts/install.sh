#!/usr/bin/env bash
# Installs cairn into PREFIX (default /usr/local): the tool in PREFIX/bin, built in release
# mode with the Swift runtime, libgit2 and the libraries libgit2 uses linked in (a process
# starts without loading them; a security update of Debian's libgit2, mbedTLS, libssh2,
# OpenSSL or PCRE2 then needs the tool installed again), and the apps' schema sets in
# PREFIX/share/cairn/schema, where the installed tool looks for them
# (`cairn init UID --schema life-in-uk`).
set -euo pipefail
cd "$(dirname "$0")/.."
export CAIRN_STATIC_LIBGIT2=1
prefix="${1:-/usr/local}"
bash scripts/install-deps.sh
swift build -c release --static-swift-stdlib --product cairn
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
install -d "$prefix/bin" "$prefix/share/cairn/schema"
install -m 0755 "$bin/cairn" "$prefix/bin/cairn"
# The sets' folders (schema/ also holds the Swift source of the sets as package resources).
for set in schema/*/; do cp -R "$set" "$prefix/share/cairn/schema/"; done
echo "Installed $prefix/bin/cairn and the schema sets in $prefix/share/cairn/schema"
