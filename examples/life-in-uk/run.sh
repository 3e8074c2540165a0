#!/usr/bin/env bash
# Seed 000 (Life in the UK Test prep): an exam session checkpointed, not written per answer;
# a book's sections marked on two devices; the summary's attempt counter from both devices;
# and what the session costs in pushes, beside the seed's Firestore budgets.
source "$(dirname "$0")/../lib.sh"

server u1 life-in-uk
on phone init u1 --schema life-in-uk --remote "$(remote u1)"
on phone sync
on tablet clone "$(remote u1)"

echo
echo "# The exam on the phone: answers buffered in the resumable exam, checkpointed now and then."
for question in 1 2 3; do
    put phone users/u1/examInProgress/practice-1 "{\"schemaVersion\":1,\"examId\":\"practice-1\",\"attemptId\":\"attempt-1\",\"questionIds\":[\"Q10169\",\"Q10170\",\"Q10171\"],\"answers\":{$(for q in $(seq 1 "$question"); do printf '"Q1016%s":["%s"]' $((8 + q)) "$q"; [ "$q" -lt "$question" ] && printf ','; done)},\"currentQuestionIndex\":$question,\"timeRemaining\":$((2700 - question * 600)),\"clientUpdatedAt\":$((1730000000000 + question * 600000))}"
done
on phone checkpoint -m "Exam practice-1 in progress"
on phone log -n 2
echo
echo "# Submit: the attempt (append-only), the summary, the resumable exam cleared."
put phone users/u1/examAttempts/attempt-1 '{"schemaVersion":1,"attemptId":"attempt-1","examId":"practice-1","status":"passed","score":83,"totalQuestions":24,"correctAnswers":20,"timeSpentInSeconds":2400,"questionIds":["Q10169","Q10170","Q10171"],"answers":{"Q10169":["1"],"Q10170":["2"],"Q10171":["3"]},"clientCreatedAt":1730002400000}'
put phone users/u1/progress/exam '{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":83,"lastAttemptId":"attempt-1","lastScore":83,"lastStatus":"passed","lastCompletedAt":"2026-11-22T09:40:00Z"}}}'
on phone rm users/u1/examInProgress/practice-1
on phone sync

echo
echo "# Meanwhile the tablet, offline: a practice exam of its own, and reading."
put tablet users/u1/examAttempts/attempt-2 '{"schemaVersion":1,"attemptId":"attempt-2","examId":"practice-1","status":"failed","score":62,"totalQuestions":24,"correctAnswers":15,"clientCreatedAt":1730003000000}'
put tablet users/u1/progress/exam '{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":62,"lastAttemptId":"attempt-2","lastScore":62,"lastStatus":"failed","lastCompletedAt":"2026-11-22T10:30:00Z"}}}'
put tablet users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730003100000},"s2":{"completed":true,"updatedAt":1730003200000}},"updatedAt":1730003200000}'
echo
echo "# And the phone marks s2 unread later, and s3 read."
put phone users/u1/books/life-in-the-uk '{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s2":{"completed":false,"updatedAt":1730003500000},"s3":{"completed":true,"updatedAt":1730003600000}},"updatedAt":1730003600000}'
on phone sync
on tablet sync
on phone sync

on phone ls users/u1/examAttempts
on tablet get users/u1/progress/exam
on tablet get users/u1/books/life-in-the-uk
on phone conflicts

check "both attempts kept on both devices" equal "$(quietly tablet ls users/u1/examAttempts | tr '\n' ' ')" "attempt-1 attempt-2 "
check "the attempt counter counts both devices' attempts" equal "$(field phone users/u1/progress/exam examSummaries practice-1 attemptCount)" "2"
check "the best score is never lowered" equal "$(field tablet users/u1/progress/exam examSummaries practice-1 bestScore)" "83"
check "the last attempt is the latest one" equal "$(field phone users/u1/progress/exam examSummaries practice-1 lastAttemptId)" '"attempt-2"'
check "s1 read (tablet), s2 unread (the phone's later mark), s3 read (phone)" equal "$(field phone users/u1/books/life-in-the-uk sections | python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(k+"="+str(v["completed"]) for k,v in sorted(d.items())))')" "s1=True s2=False s3=True"
check "completedCount is computed again after the merge" equal "$(field tablet users/u1/books/life-in-the-uk completedCount)" "2"
check "the resumable exam was cleared on submit" bash -c "! '$CAIRN_BIN' --home '$work/tablet' get users/u1/examInProgress/practice-1 2>/dev/null"
check "phone and tablet converged with the server" converged u1 phone tablet

echo
echo "# What an exam session costs (the in-progress exam written on every answer and every tick):"
step phone "cairn simulate exam-session"
"$CAIRN_BIN" simulate exam-session
check "every history verifies: cairn verify on each device and on the server" verified
echo "(attempts kept, counters added, sections by their latest mark; at most 2 pushes a session)"
