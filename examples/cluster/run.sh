#!/usr/bin/env bash
# Past one machine: three shards (`cairn server run`, a folder each) behind HAProxy, which
# sends each user to the shard of their bucket; devices of many users sync through it with the
# ID tokens their app holds. Then a fourth shard joins while the devices sync, and a quarter of
# the users move to it (`cairn server rebalance`); each shard backs up into SeaweedFS, an
# S3-compatible object store (`cairn server backup`); and in the drill, shard 2 is killed, its
# folder deleted, restored from a backup older than some acknowledged pushes
# (`cairn server restore`), and started again: the devices push what it lacked. Every write
# a sync reported as pushed must be on its user's shard at the end, each user on exactly one.
#
# Needs haproxy, rclone, and SeaweedFS's `weed` (scripts/install-deps.sh --tests and
# scripts/git-clients.sh prepare seaweedfs); USERS (default 40) users of two devices each.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../issuer.sh"
source "$(dirname "$0")/seaweedfs.sh"
here="$(pwd)/examples/cluster"
server_bin="$(dirname "$CAIRN_BIN")/cairn-server"
[ -x "$server_bin" ] || swift build --product cairn-server >/dev/null
users="${USERS:-40}"
pids=()
stop_all() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    seaweedfs_stop
    rm -rf "$work"
}
trap stop_all EXIT

issuer cluster-example
openssl rand -hex 32 > "$work/admin-secret"

# shard N: starts shard N on its ports (chosen at the first start, kept for a restart).
shard() {
    local n="$1" out="$work/shard$1.out"
    [ -f "$work/ports$n" ] || echo "$(free_port) $(free_port)" > "$work/ports$n"
    read -r port metrics < "$work/ports$n"
    : > "$out"
    "$CAIRN_BIN" server run "$work/shard$n" --issuer "$issuer" --audience "$audience" --jwks "$idp/jwks.json" \
        --schema life-in-uk --listen "127.0.0.1:$port" --metrics "127.0.0.1:$metrics" \
        --admin-secret-file "$work/admin-secret" > "$out" 2>> "$work/shard$n.log" &
    eval "shard${n}_pid=$!"
    pids+=($!)
    for _ in $(seq 100); do grep -q Serving "$out" && return 0; sleep 0.1; done
    echo "shard $n did not start: $(cat "$work/shard$n.log")" >&2
    return 1
}

step servers "cairn server run \$work/shardN --admin-secret-file … (N = 1 to 4; shard 4 owns no bucket yet)"
mkdir -p "$work/shard4/.cairn-shard" && echo none > "$work/shard4/.cairn-shard/buckets"
for n in 1 2 3 4; do shard "$n"; done
step servers "cairn server map shard1 shard2 shard3 > buckets.map"
"$CAIRN_BIN" server map shard1 shard2 shard3 > "$work/buckets.map"
: > "$work/users.map"
haproxy_port="$(free_port)"
stats_port="$(free_port)"
sed -e "s|@STATS_PORT@|$stats_port|; s|@PORT@|$haproxy_port|; s|@HERE@|$here|; s|@USERS_MAP@|$work/users.map|; s|@BUCKETS_MAP@|$work/buckets.map|" \
    $(for n in 1 2 3 4; do read -r p m < "$work/ports$n"; echo "-e s|@SHARD${n}_PORT@|$p|g -e s|@SHARD${n}_METRICS@|$m|g"; done) \
    "$here/haproxy.cfg" > "$work/haproxy.cfg"
step haproxy "haproxy -f haproxy.cfg   # /git/<uid>.git → the shard of crc32(uid) mod 1024"
haproxy -W -f "$work/haproxy.cfg" > "$work/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do (echo > "/dev/tcp/127.0.0.1/$haproxy_port") 2>/dev/null && break; sleep 0.1; done

# The devices: two a user, each with the token its app holds, syncing through HAProxy.
export CAIRN_BIN work
export CAIRN_SYNC_RETRY=1,2,4,8
mkdir -p "$work/tokens"
for i in $(seq "$users"); do token "u$i" > "$work/tokens/u$i"; done
write_and_sync() {  # DEVICE UID NOTE: a note written, then a sync; an acknowledged one recorded.
    local device="$1" uid="$2" note="$3"
    printf '{"n":"%s"}' "$note" | "$CAIRN_BIN" --home "$work/$device" put "users/$uid/notes/$note" >/dev/null
    if CAIRN_TOKEN="$(cat "$work/tokens/$uid")" "$CAIRN_BIN" --home "$work/$device" sync >/dev/null 2>>"$work/$device.errors"; then
        echo "$uid $note" >> "$work/acknowledged"
    else
        echo "$device $? $(tail -1 "$work/$device.errors")" >> "$work/failed-syncs"
    fi
}
export -f write_and_sync
round() {  # NAME: every device writes a note and syncs, four at once.
    for i in $(seq "$users"); do echo "a$i u$i $1-a$i"; echo "b$i u$i $1-b$i"; done \
        | xargs -P 4 -L 1 bash -c 'write_and_sync "$@"' _
}
: > "$work/acknowledged"
: > "$work/failed-syncs"
step devices "$((users * 2)) devices of $users users: cairn init / clone, then a note and cairn sync each"
for i in $(seq "$users"); do
    CAIRN_TOKEN="$(cat "$work/tokens/u$i")" quietly "a$i" init "u$i" --schema life-in-uk --remote "http://127.0.0.1:$haproxy_port/git/u$i.git" >/dev/null
    printf '{"n":"first"}' | quietly "a$i" put "users/u$i/notes/first"
    CAIRN_TOKEN="$(cat "$work/tokens/u$i")" quietly "a$i" sync >/dev/null
    CAIRN_TOKEN="$(cat "$work/tokens/u$i")" quietly "b$i" clone "http://127.0.0.1:$haproxy_port/git/u$i.git" >/dev/null
done
round r1
for n in 1 2 3; do echo "shard$n: $(ls "$work/shard$n" | grep -c '\.git$') users"; done

step backup "cairn server backup \$work/shardN --to s3://cairn-backups/shardN   # SeaweedFS, 3 volume servers"
seaweedfs_start "$work/seaweedfs"
for n in 1 2 3 4; do "$CAIRN_BIN" server backup "$work/shard$n" --to "s3://cairn-backups/shard$n" --s3-endpoint "$s3_endpoint"; done

step rebalance "cairn server rebalance --add shard4 …   # while every device writes and syncs"
round r2 &
load=$!
secret="$work/admin-secret"
shard_args=()
for n in 1 2 3 4; do read -r p m < "$work/ports$n"; shard_args+=(--shard "shard$n=http://127.0.0.1:$m"); done
"$CAIRN_BIN" server rebalance --add shard4 "${shard_args[@]}" --haproxy "127.0.0.1:$stats_port" \
    --buckets-map "$work/buckets.map" --users-map "$work/users.map" --admin-secret-file "$secret"
wait "$load"
for n in 1 2 3 4; do echo "shard$n: $(ls "$work/shard$n" | grep -c '\.git$') users"; done
moving_failures="$(wc -l < "$work/failed-syncs")"

step backup "cairn server backup … again; then more writes the backup will lack"
for n in 1 2 3 4; do "$CAIRN_BIN" server backup "$work/shard$n" --to "s3://cairn-backups/shard$n" --s3-endpoint "$s3_endpoint"; done
round r3

step drill "kill -9 shard 2; rm -rf \$work/shard2; cairn server restore \$work/shard2 --from s3://cairn-backups/shard2"
round r4 &
load=$!
sleep 1
kill -9 "$shard2_pid"
rm -rf "$work/shard2"
"$CAIRN_BIN" server restore "$work/shard2" --from s3://cairn-backups/shard2 --s3-endpoint "$s3_endpoint" --schema life-in-uk
lacked=0
while read -r uid note; do
    [ -d "$work/shard2/$uid.git" ] || continue
    git --git-dir "$work/shard2/$uid.git" cat-file -e "main:users/$uid/notes/$note.json" 2>/dev/null || lacked=$((lacked + 1))
done < "$work/acknowledged"
echo "the restored shard 2 lacks $lacked acknowledged writes; it starts again"
shard 2
wait "$load"
step devices "every device syncs again: they push what the restored shard lacked"
for i in $(seq "$users"); do
    for d in a b; do CAIRN_TOKEN="$(cat "$work/tokens/u$i")" quietly "$d$i" sync >/dev/null 2>>"$work/final.errors" || true; done
done

# Where each user is, and whether every acknowledged note is there.
on_one_shard() {
    local i count
    for i in $(seq "$users"); do
        count="$(ls -d "$work"/shard*/"u$i.git" 2>/dev/null | wc -l)"
        [ "$count" = 1 ] || { echo "  u$i is on $count shards" >&2; return 1; }
    done
}
lost() {
    local uid note repository missing=0
    while read -r uid note; do
        repository="$(ls -d "$work"/shard*/"$uid.git" | head -1)"
        git --git-dir "$repository" cat-file -e "main:users/$uid/notes/$note.json" 2>/dev/null || missing=$((missing + 1))
    done < "$work/acknowledged"
    echo "$missing"
}
echo
echo "acknowledged writes: $(wc -l < "$work/acknowledged"); pushed again to the restored shard: $lacked; syncs that failed after their retries: $(wc -l < "$work/failed-syncs")"
check "each user's repository is on exactly one shard" on_one_shard
check "shard 4 took users" bash -c "ls '$work/shard4' | grep -q '\.git$'"
check "the restored shard lacked acknowledged writes, which the devices pushed again" test "$lacked" -gt 0
check "no sync failed while users moved" equal "$moving_failures" 0
check "every acknowledged write is on its user's shard: 0 lost" equal "$(lost)" 0
check "every history verifies: cairn verify on each device and on each shard" verified
echo "(users on one shard each; a quarter moved to shard 4 under load; shard 2 restored from the object store; 0 writes lost)"
