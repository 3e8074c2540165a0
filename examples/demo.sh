#!/usr/bin/env bash
# Cairn's main job on a fresh machine, in a temporary folder: one user's progress on two
# devices (a phone and a tablet, each its own Cairn home) syncing through a bare repository
# that stands for the server. Both work offline — exam attempts, reading progress per book
# section, the exam summary — then sync: the documents merge under the life-in-uk policies,
# both devices end on the same tree, and the history reads with cairn and with plain git.
set -euo pipefail
bash "$(dirname "$0")/../scripts/install-deps.sh"
source "$(dirname "$0")/lib.sh"

server u1 life-in-uk
on phone init u1 --schema life-in-uk --remote "$(remote u1)"
put phone users/u1/examAttempts/attempt-1 '{"schemaVersion":1,"attemptId":"attempt-1","examId":"practice-1","status":"passed","score":83,"totalQuestions":24,"correctAnswers":20,"clientCreatedAt":1730000000000}'
put phone users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730000000000}},"updatedAt":1730000000000}'
put phone users/u1/progress/exam '{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":83,"lastAttemptId":"attempt-1","lastScore":83,"lastStatus":"passed","lastCompletedAt":"2026-11-20T09:00:00Z"}}}'
on phone checkpoint -m "Exam practice-1 submitted"
on phone sync

on tablet clone "$(remote u1)"

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
git --git-dir "$(remote u1)" log --format='%h %s' -3

echo
check "the same tree on both devices and the server, clean and sound" converged u1 phone tablet
check "every attempt kept" equal "$(quietly tablet ls users/u1/examAttempts | tr '\n' ' ')" "attempt-1 attempt-2 attempt-3 "
check "the attempt counter counts both devices" equal "$(field phone users/u1/progress/exam examSummaries practice-1 attemptCount)" "3"
check "every history verifies: cairn verify on each device and on the server" verified
