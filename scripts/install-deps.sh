#!/usr/bin/env bash
# Installs, on Debian or Ubuntu, what the machine lacks for building Cairn, and with --tests
# also for testing it.
#
# Building Cairn (the demo, an app, the tool) needs four packages: libgit2-dev (the library
# Cairn is built on; it brings the static archives of libgit2 and of the libraries it uses,
# which the installed tool links in: Package.swift), zlib1g-dev (the checksums of the packs
# Cairn writes), pkg-config (how the build finds them) and git (the demo reads the history
# with plain git, as users do).
#
# --tests adds what the tests and the benchmark use: lighttpd (the tests' loopback git
# server: smart HTTP through git http-backend, with a password per user), nginx, fcgiwrap and
# openssl (the other loopback git server: nginx passes requests to git http-backend through
# fcgiwrap, with passwords hashed by openssl passwd), and openssh-server
# and openssh-client (the tests' loopback SSH server: sshd, with the user keys in ssh-agents),
# gitolite3 (the tests' loopback gitolite behind that sshd, telling users apart by key; installed
# without its interactive set-up: each test sets up a gitolite of its own),
# libsqlite3-dev (the benchmark's peer for reads and writes; Cairn itself never uses SQLite),
# strace (the crash and I/O-error harness kills or fails the tool at each of its writes,
# fsyncs and renames with strace's fault injection), and the other git implementations the
# tests open stores with (scripts/git-clients.sh): python3 and python3-venv (a virtual
# environment for pygit2 and dulwich from PyPI), python3-pygit2 (libgit2 1.5) and
# python3-dulwich as Debian ships them, and libjgit-java with default-jdk-headless (javac
# compiles the JGit client), jq (the music-practice example reads `--json` output with it), and
# git-lfs (the tests' Git LFS client, against giftless behind lighttpd; giftless comes from PyPI
# through scripts/git-clients.sh), time (GNU time: the benchmark's measure of each side's peak
# memory), and libcurl4-openssl-dev (the LFS client talks to LFS servers with libcurl, loaded
# when it first sends a request, so the tool starts and builds without it; the package brings
# the library, libcurl4, and the header the build then checks Cairn's copy of libcurl's
# numbers against: Sources/CCurl/curl_abi.h), chromium (the headless browser
# the tests load `cairn web`'s pages in and take a screenshot with), curl (the tests read
# those pages' status and headers with it), prometheus (it scrapes `cairn server run`'s
# metrics in the tests, as an operator's would), haproxy (the router in front of the shards:
# tests and examples/cluster), rclone (the client `cairn server backup` and `restore` copy
# with, to SeaweedFS in the tests) and ca-certificates (the CA certificates libgit2 reads for
# https:// remotes).
set -euo pipefail

case "${1:-}" in
    "") tests=no ;;
    --tests) tests=yes ;;
    *) echo "install-deps.sh: unknown option $1; use no option (to build) or --tests (to test)" >&2; exit 64 ;;
esac

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists libgit2 2>/dev/null || need+=(libgit2-dev)
pkg-config --exists zlib 2>/dev/null || need+=(zlib1g-dev)
command -v git >/dev/null 2>&1 || need+=(git)
if [ "$tests" = yes ]; then
    pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
    pkg-config --exists libcurl 2>/dev/null || need+=(libcurl4-openssl-dev)
    command -v lighttpd >/dev/null 2>&1 || [ -x /usr/sbin/lighttpd ] || need+=(lighttpd)
    [ -x /usr/sbin/nginx ] || need+=(nginx)
    [ -x /usr/sbin/fcgiwrap ] || need+=(fcgiwrap)
    [ -x /usr/bin/openssl ] || need+=(openssl)
    [ -x /usr/sbin/sshd ] || need+=(openssh-server)
    [ -x /usr/bin/strace ] || need+=(strace)
    [ -x /usr/bin/python3 ] || need+=(python3)
    /usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
    /usr/bin/python3 -I -c 'import pygit2' >/dev/null 2>&1 || need+=(python3-pygit2)
    /usr/bin/python3 -I -c 'import dulwich' >/dev/null 2>&1 || need+=(python3-dulwich)
    [ -f /usr/share/java/org.eclipse.jgit.jar ] || need+=(libjgit-java)
    command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
    [ -x /usr/bin/gitolite ] || need+=(gitolite3)
    command -v jq >/dev/null 2>&1 || need+=(jq)
    [ -x /usr/bin/git-lfs ] || need+=(git-lfs)
    [ -x /usr/bin/time ] || need+=(time)
    [ -x /usr/bin/chromium ] || need+=(chromium)
    [ -x /usr/bin/curl ] || need+=(curl)
    [ -x /usr/bin/prometheus ] || need+=(prometheus)
    [ -x /usr/sbin/haproxy ] || need+=(haproxy)
    [ -x /usr/bin/rclone ] || need+=(rclone)
    [ -f /etc/ssl/certs/ca-certificates.crt ] || need+=(ca-certificates)
    { command -v ssh-agent && command -v ssh-add && command -v ssh-keygen; } >/dev/null 2>&1 || need+=(openssh-client)
fi

if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi
echo "Installing: ${need[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
# Building needs only the four packages themselves; the tests' servers come as Debian sets
# them up, with what they recommend.
if [ "$tests" = yes ]; then recommends=(); else recommends=(--no-install-recommends); fi
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${recommends[@]}" "${need[@]}" >/dev/null
