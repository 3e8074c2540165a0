# Shared by the seed apps' example scripts (examples/<app>/run.sh): a temporary folder with a
# bare remote and one Cairn home per device, commands printed as they run, and checks that
# stop the script with a non-zero status when the expected end state is not reached.
#
#   source "$(dirname "$0")/../lib.sh"
#   server u1 life-in-uk              # the remote of user u1, its hook checking the set
#   on phone init u1 --schema life-in-uk --remote "$(remote u1)"
#   put phone users/u1/books/b1 '{"…"}'
#   check "both devices converged" same_tree phone tablet
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${CAIRN_BIN:-}" ]; then
    swift build --product cairn >/dev/null
    CAIRN_BIN="$(swift build --show-bin-path)/cairn"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CAIRN_SYNC_RETRY=none

step() { printf '\n%s$ %s\n' "$1" "$2"; }

# remote UID: the URL of that user's bare repository.
remote() { echo "$work/server/$1.git"; }

# server UID SET: creates the user's bare repository, checking pushes against the set.
server() { step server "cairn server init \$work/server $1 --schema $2"; "$CAIRN_BIN" server init "$work/server" "$1" --schema "$2"; }

# content NAME SET AUTHOR ITEM…: a collection of shared content on the same server, its items
# created (one bare repository each), AUTHOR the one who may publish them.
content() {
    local name="$1" set="$2" author="$3"; shift 3
    step server "cairn server content init \$work/server $name $* --schema $set --author $author"
    "$CAIRN_BIN" server content init "$work/server" "$name" "$@" --schema "$set" --author "$author"
}

# publish NAME ITEM MESSAGE PATH JSON [PATH JSON]…: an author publishes a version of an item
# with plain git (a clone, a commit, a push the server's hook checks).
publish() {
    local name="$1" item="$2" message="$3" clone="$work/authors/$1-$2"; shift 3
    step author "git commit -m \"$message\" && git push   # $name/$item"
    [ -d "$clone" ] || git clone -q "$work/server/content/$name/$item.git" "$clone" 2>/dev/null
    while [ $# -ge 2 ]; do
        mkdir -p "$clone/$(dirname "$1")"
        printf '%s\n' "$2" > "$clone/$1.json"
        shift 2
    done
    git -C "$clone" add -A
    git -C "$clone" -c user.name=Author -c user.email=author@example.org commit -q -m "$message"
    git -C "$clone" push -q origin HEAD:main
}

# on DEVICE ARGS…: cairn in that device's home.
on() { local device="$1"; shift; step "$device" "cairn $*"; "$CAIRN_BIN" --home "$work/$device" "$@"; }

# quietly DEVICE ARGS…: the same, printing nothing (for values a check reads).
quietly() { local device="$1"; shift; "$CAIRN_BIN" --home "$work/$device" "$@"; }

# put DEVICE PATH JSON: writes a document on that device.
put() { step "$1" "cairn put $2 <<< '$3'"; printf '%s' "$3" | "$CAIRN_BIN" --home "$work/$1" put "$2"; }

# field DEVICE PATH KEY…: a field of a document (nested keys in turn), as JSON.
field() {
    local device="$1" path="$2"; shift 2
    quietly "$device" get "$path" | python3 -c 'import json,sys; v=json.load(sys.stdin)
for k in sys.argv[1:]: v=v[k]
print(json.dumps(v, sort_keys=True, ensure_ascii=False))' "$@"
}

# tree DEVICE UID: the tree id of the device's store.
tree() { git -C "$work/$1/$2" rev-parse 'HEAD^{tree}'; }

# check WHAT COMMAND…: runs the command; stops the script when it fails.
check() {
    local what="$1"; shift
    if "$@"; then echo "ok: $what"; else echo "FAILED: $what" >&2; exit 1; fi
}

# equal A B: whether two values are the same text.
equal() { [ "$1" = "$2" ] || { echo "  expected: $2" >&2; echo "  found:    $1" >&2; return 1; }; }

# converged UID DEVICE…: every device's store of UID has the server's tree, clean and sound.
converged() {
    local uid="$1"; shift
    local expected; expected="$(git --git-dir "$(remote "$uid")" rev-parse 'main^{tree}')"
    for device in "$@"; do
        equal "$(tree "$device" "$uid")" "$expected" || return 1
        [ -z "$(git -C "$work/$device/$uid" status --porcelain)" ] || return 1
        git -C "$work/$device/$uid" fsck --strict >/dev/null 2>&1 || return 1
    done
}

# verified: `cairn verify` on every store of every device (the homes under $work) and on every
# user's repository on the server (or on each shard, $work/shard*): every commit meets the rules a push must meet, every merge
# is what the policies give. The first history with a finding stops the script, its findings
# shown; finding no history at all is a failure too.
verified() {
    local git store output count=0
    for git in "$work"/*/*/.git "$work"/server/*.git "$work"/shard*/*.git; do
        [ -d "$git" ] || continue
        if [ "$(basename "$git")" = .git ]; then
            store="${git%/.git}"
            [ -f "$store/.cairn/store.json" ] || continue
            output="$("$CAIRN_BIN" --home "$(dirname "$store")" --user "$(basename "$store")" verify 2>&1)" \
                || { echo "$output" | sed "s|^|  $store: |" >&2; return 1; }
        else
            output="$("$CAIRN_BIN" verify --git-dir "$git" 2>&1)" || { echo "$output" | sed "s|^|  $git: |" >&2; return 1; }
        fi
        count=$((count + 1))
    done
    echo "  $count histories verified"
    [ "$count" -gt 0 ]
}
