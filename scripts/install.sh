#!/usr/bin/env bash
# Installs cairn into PREFIX (default /usr/local): the tool and its programs in PREFIX/bin, built in release
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
# The tool, and beside it the programs it runs: the hooks of a server's repositories
# (cairn-hook), the server (cairn server run) and the history view (cairn web).
programs=(cairn cairn-hook cairn-server cairn-web)
for program in "${programs[@]}"; do
  swift build -c release --static-swift-stdlib --product "$program"
done
bin="$(swift build -c release --static-swift-stdlib --show-bin-path)"
install -d "$prefix/bin" "$prefix/share/cairn/schema"
for program in "${programs[@]}"; do
  install -m 0755 "$bin/$program" "$prefix/bin/$program"
done
# The sets' folders (schema/ also holds the Swift source of the sets as package resources).
for set in schema/*/; do cp -R "$set" "$prefix/share/cairn/schema/"; done
echo "Installed ${programs[*]} in $prefix/bin and the schema sets in $prefix/share/cairn/schema"
