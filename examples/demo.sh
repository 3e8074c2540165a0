#!/usr/bin/env bash
# Cairn's main job on a fresh machine, in a temporary home: create a user's store, write
# progress documents from the seed apps (an exam attempt, reading progress per book section,
# a habit board), checkpoint, and read the history — with cairn, then with plain git.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --product cairn >/dev/null
bin="$(swift build --show-bin-path)/cairn"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CAIRN_HOME="$work/home"

step() { printf '\n$ %s\n' "$*"; }
cairn() { step "cairn $*"; "$bin" "$@"; }
cairn_in() { local input="$1"; shift; step "cairn $* <<< '$input'"; printf '%s' "$input" | "$bin" "$@"; }

cairn init u1
cairn_in '{"schemaVersion":1,"attemptId":"attempt-1730000000000","examId":"practice-1","status":"passed","score":83,"totalQuestions":24,"correctAnswers":20,"answers":{"Q10169":["1"],"Q10170":["0","3"]},"clientCreatedAt":1730000000000}' \
    put users/u1/examAttempts/attempt-1730000000000
cairn_in '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730000000000}},"completedCount":1,"lastSectionId":"s1","updatedAt":1730000000000}' \
    put users/u1/books/life-in-the-uk
cairn_in '{"id":"7d1c0f9e-5b7a-4c1e-9a57-3f2f4f7e2b10","userId":"u1","name":"November habits","status":"active","boardSize":3,"timeframe":"monthly","startDate":"2026-11-01T00:00:00Z","endDate":"2026-11-30T23:59:59Z","centerSquareType":"free","isRandomized":false,"totalTasks":9,"completedTasks":4,"completionPercentage":0.4444444444444444,"linesCompleted":1,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-21T19:30:00Z","version":7,"isDeleted":false}' \
    put users/u1/boards/7d1c0f9e-5b7a-4c1e-9a57-3f2f4f7e2b10
cairn status
cairn checkpoint -m "Exam practice-1 submitted"
cairn_in '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730000000000},"s2":{"completed":true,"updatedAt":1730000090000}},"completedCount":2,"lastSectionId":"s2","updatedAt":1730000090000}' \
    put users/u1/books/life-in-the-uk
cairn checkpoint
cairn ls users/u1/books
cairn get users/u1/books/life-in-the-uk
cairn get users/u1/books/life-in-the-uk --at HEAD~1
cairn log
cairn log users/u1/books/life-in-the-uk

step "git -C \$CAIRN_HOME/u1 log --stat --format='%h %an %s'"
git -C "$CAIRN_HOME/u1" log --stat --format='%h %an %s'
step "git -C \$CAIRN_HOME/u1 status --short && git -C \$CAIRN_HOME/u1 fsck"
git -C "$CAIRN_HOME/u1" status --short
git -C "$CAIRN_HOME/u1" fsck
echo "(clean, sound)"
