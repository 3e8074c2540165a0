#!/usr/bin/env bash
# Cairn's main job on a fresh machine, in a temporary folder: one user's progress on two
# devices (a phone and a tablet, each its own Cairn home) syncing through a bare repository
# that stands for the server. Both work offline — exam attempts, reading progress per book
# section, the exam summary — then sync: the documents merge under the life-in-uk policies,
# both devices end on the same tree, and the history reads with cairn and with plain git.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --product cairn >/dev/null
bin="$(swift build --show-bin-path)/cairn"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
remote="$work/server/u1.git"
export CAIRN_SYNC_RETRY=none

step() { printf '\n%s$ %s\n' "$1" "$2"; }
# on DEVICE ARGS…: runs cairn in that device's home.
on() { local device="$1"; shift; step "$device" "cairn $*"; "$bin" --home "$work/$device" "$@"; }
# put DEVICE PATH JSON: writes a document on that device.
put() { step "$1" "cairn put $2 <<< '$3'"; printf '%s' "$3" | "$bin" --home "$work/$1" put "$2"; }

step server "cairn server init \$work/server u1"
"$bin" server init "$work/server" u1 --schema life-in-uk

on phone init u1 --schema life-in-uk --remote "$remote"
put phone users/u1/examAttempts/attempt-1 '{"schemaVersion":1,"attemptId":"attempt-1","examId":"practice-1","status":"passed","score":83,"totalQuestions":24,"correctAnswers":20,"clientCreatedAt":1730000000000}'
put phone users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730000000000}},"updatedAt":1730000000000}'
put phone users/u1/progress/exam '{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":83,"lastAttemptId":"attempt-1","lastScore":83,"lastStatus":"passed","lastCompletedAt":"2026-11-20T09:00:00Z"}}}'
on phone checkpoint -m "Exam practice-1 submitted"
on phone sync

on tablet clone "$remote"

echo
echo "# Both devices go offline and keep working."
put phone users/u1/examAttempts/attempt-2 '{"schemaVersion":1,"attemptId":"attempt-2","examId":"practice-1","status":"passed","score":91,"totalQuestions":24,"correctAnswers":22,"clientCreatedAt":1730100000000}'
put phone users/u1/progress/exam '{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":91,"lastAttemptId":"attempt-2","lastScore":91,"lastStatus":"passed","lastCompletedAt":"2026-11-21T08:00:00Z"}}}'
put phone users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":false,"updatedAt":1730100000000},"s2":{"completed":true,"updatedAt":1730100050000}},"updatedAt":1730100050000}'
on phone checkpoint
put tablet users/u1/examAttempts/attempt-3 '{"schemaVersion":1,"attemptId":"attempt-3","examId":"practice-1","status":"failed","score":62,"totalQuestions":24,"correctAnswers":15,"clientCreatedAt":1730200000000}'
put tablet users/u1/progress/exam '{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":83,"lastAttemptId":"attempt-3","lastScore":62,"lastStatus":"failed","lastCompletedAt":"2026-11-21T19:00:00Z"}}}'
put tablet users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730200000000},"s3":{"completed":true,"updatedAt":1730200090000}},"updatedAt":1730200090000}'
on tablet status

echo
echo "# Back online: each syncs; the second one merges, the first then fast-forwards."
on phone sync
on tablet sync
on phone sync

on phone ls users/u1/examAttempts
on phone get users/u1/progress/exam
on tablet get users/u1/books/life-in-the-uk
on phone conflicts
on tablet log -n 4

step tablet "git -C \$work/tablet/u1 log --graph --format='%h %s'"
git -C "$work/tablet/u1" log --graph --format='%h %s'
step server "git --git-dir \$work/server/u1.git log --format='%h %s' -3"
git --git-dir "$remote" log --format='%h %s' -3

phone_tree="$(git -C "$work/phone/u1" rev-parse 'HEAD^{tree}')"
tablet_tree="$(git -C "$work/tablet/u1" rev-parse 'HEAD^{tree}')"
step both "git rev-parse HEAD^{tree}   # phone, tablet"
echo "$phone_tree"
echo "$tablet_tree"
[ "$phone_tree" = "$tablet_tree" ] || { echo "the devices did not converge" >&2; exit 1; }
[ "$(git -C "$work/phone/u1" rev-parse HEAD)" = "$(git --git-dir "$remote" rev-parse main)" ] || { echo "the server is not on the devices' commit" >&2; exit 1; }
for device in phone tablet; do
    [ -z "$(git -C "$work/$device/u1" status --porcelain)" ] || { echo "$device has uncommitted files" >&2; exit 1; }
    git -C "$work/$device/u1" fsck --strict 2>/dev/null
done
attempts="$("$bin" --home "$work/tablet" ls users/u1/examAttempts | tr '\n' ' ')"
[ "$attempts" = "attempt-1 attempt-2 attempt-3 " ] || { echo "attempts lost: $attempts" >&2; exit 1; }
count="$("$bin" --home "$work/phone" get users/u1/progress/exam | grep -c '"attemptCount": 3' || true)"
[ "$count" = 1 ] || { echo "the attempt counter is not 3" >&2; exit 1; }
echo "(same tree on both devices and the server; every attempt kept; clean and sound)"
