#!/usr/bin/env bash
# An app whose users sign in with an identity provider, served by `cairn server run` on
# 127.0.0.1: the devices sync with the ID tokens the app holds, each user's repository is made
# by their first sync, an anonymous user reads and may not push, then signs in and brings the
# anonymous progress along. The provider here is a test issuer whose RSA key this script makes
# with openssl, which also signs the tokens (RS256): another implementation than the one that
# verifies them.
source "$(dirname "$0")/../lib.sh"
server_bin="$(dirname "$CAIRN_BIN")/cairn-server"
[ -x "$server_bin" ] || swift build --product cairn-server >/dev/null

# The issuer: a key, its key set (the JWKS a provider publishes), and tokens it signs.
source "$(dirname "$0")/../issuer.sh"
issuer sign-in-example

step server "cairn server run \$work/server --issuer $issuer --audience sign-in-example --jwks \$work/idp/jwks.json --listen 127.0.0.1:0"
"$CAIRN_BIN" server run "$work/server" --issuer "$issuer" --audience sign-in-example --jwks "$idp/jwks.json" \
    --listen 127.0.0.1:0 --metrics 127.0.0.1:0 --schema life-in-uk > "$work/server.out" 2> "$work/server.log" &
server_pid=$!
trap 'kill $server_pid 2>/dev/null; wait $server_pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q Serving "$work/server.out" 2>/dev/null && break; sleep 0.1; done
cat "$work/server.out"
port="$(grep -o '127.0.0.1:[0-9]*' "$work/server.out" | head -1 | cut -d: -f2)"
url() { echo "http://127.0.0.1:$port/git/$1.git"; }

echo
echo "# Two devices of u1, each with the token the app holds."
export CAIRN_TOKEN
CAIRN_TOKEN="$(token u1)"
on phone init u1 --schema life-in-uk --remote "$(url u1)"
put phone users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730000000000}},"updatedAt":1730000000000}'
on phone sync
on tablet clone "$(url u1)"
put tablet users/u1/examAttempts/attempt-1 '{"schemaVersion":1,"attemptId":"attempt-1","examId":"practice-1","status":"passed","score":83,"totalQuestions":24,"correctAnswers":20,"clientCreatedAt":1730000000000}'
on tablet sync
on phone sync

echo
echo "# A second user, beside them."
CAIRN_TOKEN="$(token u2)"
on laptop init u2 --schema life-in-uk --remote "$(url u2)"
put laptop users/u2/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s2":{"completed":true,"updatedAt":1730000000000}},"updatedAt":1730000000000}'
on laptop sync

echo
echo "# Someone tries the app without an account: anonymous, the server keeps nothing of theirs."
CAIRN_TOKEN="$(token anon-7 anonymous)"
on kiosk init anon-7 --schema life-in-uk --remote "$(url anon-7)"
put kiosk users/anon-7/examAttempts/attempt-9 '{"schemaVersion":1,"attemptId":"attempt-9","examId":"practice-1","status":"failed","score":55,"totalQuestions":24,"correctAnswers":13,"clientCreatedAt":1730100000000}'
step kiosk "cairn sync"
if "$CAIRN_BIN" --home "$work/kiosk" sync 2> "$work/refused"; then refused=0; else refused=$?; fi
cat "$work/refused"

echo
echo "# They sign in as u3: the new account's store takes the anonymous progress, and syncs it."
CAIRN_TOKEN="$(token u3)"
on kiosk init u3 --schema life-in-uk --remote "$(url u3)"
on kiosk --user u3 import anon-7
on kiosk --user u3 sync
on kiosk --user u3 ls users/u3/examAttempts

echo
step server "tail -4 \$work/server.log   # one line per request"
tail -4 "$work/server.log"

echo
check "the anonymous push was refused, as a server's rule (exit 1)" equal "$refused" 1
check "u1's devices converged" converged u1 phone tablet
check "u1's book and attempt on both devices" equal "$(quietly tablet ls users/u1/books)$(quietly phone ls users/u1/examAttempts)" "life-in-the-ukattempt-1"
check "each user has one repository, made by their first sync; none for the anonymous account" equal "$(ls "$work/server" | tr '\n' ' ')" "u1.git u2.git u3.git "
check "u3 holds the anonymous attempt, as theirs" equal "$(quietly kiosk --user u3 get users/u3/examAttempts/attempt-9 | python3 -c 'import json, sys; print(json.load(sys.stdin)["score"])')" 55
check "no token in the server's log" bash -c "! grep -q '$(token u1 | cut -c1-60)' '$work/server.log'"
check "every history verifies: cairn verify on each device and on the server" verified
echo "(devices synced with their ID tokens; repositories made on first sync; the anonymous push refused, then imported on sign-in)"
