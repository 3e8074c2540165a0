#!/usr/bin/env bash
# Seed 001, EduMind.AI offline assessments: a student downloads an assessment on a phone and a
# tablet, answers a question on the tablet whose network drops before the sync, answers the
# whole assessment offline on the phone (that question again: the seed's "Duplicate Response")
# and submits it; both devices sync later through a bare remote. Checks: one response per
# question, the later answered_at kept and the earlier one recorded, the submission unchanged,
# every queued operation of both devices kept, and both devices on the server's tree. Then the
# assessments as shared content (§6): two quizzes downloaded and answered offline, one updated
# and one deleted on the server meanwhile; the sync holds their answers until the student
# submits the first anyway and puts the second's aside, nothing lost.
source "$(dirname "$0")/../lib.sh"

# Times: answered_at and submitted_at in milliseconds, downloaded_at and the queue in seconds.
student=u1
assessment=algebra-quiz-1
quiz='{"id":"algebra-quiz-1","title":"Algebra Quiz","version":2,"questions":[{"id":"q-001","text":"x + 3 = 7"},{"id":"q-002","text":"2x = 84"},{"id":"q-003","text":"x / 5 = 3"}]}'

# response DEVICE QUESTION UUID ANSWER ANSWERED_AT: a pending response, keyed by assessment and question.
response() {
    put "$1" "users/$student/pending_responses/${assessment}_$2" \
        "{\"id\":\"$3\",\"student_id\":\"$student\",\"assessment_id\":\"$assessment\",\"question_id\":\"$2\",\"response_data\":{\"answer\":\"$4\",\"timeSpentMs\":45000},\"answered_at\":$5,\"synced\":false,\"sync_attempts\":0}"
}
# queue DEVICE N TYPE CREATED_AT ID: an operation of that device's sync queue, in its order N;
# an upload_response links the response's id (its client UUID), a submit_assessment names the assessment.
queue() {
    local data link=""
    if [ "$3" = upload_response ]; then data="{\"response_id\":\"$5\"}"; link=",\"pending_response_id\":\"$5\""
    else data="{\"assessment_id\":\"$5\"}"; fi
    put "$1" "users/$student/devices/$1/sync_queue/$2" \
        "{\"id\":$2,\"operation_type\":\"$3\",\"operation_data\":$data,\"status\":\"pending\",\"created_at\":$4,\"retry_count\":0$link}"
}
# cache DEVICE DOWNLOADED_AT COMPLETED [LAST_ACCESSED]: the assessment cached on that device
# ("Store in SQLite with expiration": 7 days).
cache() {
    local accessed=""; [ -n "${4:-}" ] && accessed=",\"last_accessed_at\":$4"
    put "$1" "users/$student/devices/$1/cached_assessments/$assessment" \
        "{\"assessment_id\":\"$assessment\",\"assessment_version\":\"2\",\"assessment_data\":$quiz,\"downloaded_at\":$2,\"expires_at\":$(($2 + 7 * 86400)),\"size_bytes\":${#quiz},\"is_completed\":$3$accessed}"
}
# questions DEVICE: the question_id of every pending response on that device, sorted.
questions() {
    for id in $(quietly "$1" ls "users/$student/pending_responses"); do
        field "$1" "users/$student/pending_responses/$id" question_id
    done | tr -d '"' | sort | tr '\n' ' '
}
ids() { quietly "$1" ls "$2" | tr '\n' ' '; }

server "$student" edumind
on phone init "$student" --schema edumind --remote "$(remote "$student")"

echo
echo "# Download phase (online): each device caches the assessment."
cache phone 1698364800 false
on phone sync
on tablet clone "$(remote "$student")"
cache tablet 1698365000 false
on tablet sync

echo
echo "# The tablet: the student answers q-002 online; the network drops before the sync completes."
response tablet q-002 resp-7f3a "42" 1698378100000
queue tablet 1 upload_response 1698378100 resp-7f3a
on tablet checkpoint -m "Answered q-002 (not synced: the network dropped)"

echo
echo "# The phone, offline (no network): the student answers every question, q-002 again, and submits."
response phone q-001 resp-1c20 "4" 1698378400000
response phone q-002 resp-2d41 "84" 1698378460000
response phone q-003 resp-3e62 "15" 1698378520000
put phone "users/$student/submitted_assessments/$assessment" \
    "{\"assessment_id\":\"$assessment\",\"assessment_version\":\"2\",\"student_id\":\"$student\",\"submitted_at\":1698378600000,\"response_ids\":[\"resp-1c20\",\"resp-2d41\",\"resp-3e62\"]}"
queue phone 1 upload_response 1698378400 resp-1c20
queue phone 2 upload_response 1698378460 resp-2d41
queue phone 3 upload_response 1698378520 resp-3e62
queue phone 4 submit_assessment 1698378600 "$assessment"
cache phone 1698364800 true 1698378600
on phone checkpoint -m "Algebra quiz answered and submitted offline"
on phone status

echo
echo "# A submitted assessment is never changed (append-only): the phone cannot resubmit it."
step phone "cairn put users/$student/submitted_assessments/$assessment <<< '{… \"submitted_at\":1698379000000 …}'"
if printf '%s' "{\"assessment_id\":\"$assessment\",\"assessment_version\":\"2\",\"student_id\":\"$student\",\"submitted_at\":1698379000000}" \
    | quietly phone put "users/$student/submitted_assessments/$assessment"; then
    resubmitted=yes
else
    resubmitted=no
fi

echo
echo "# Back online: the phone syncs first, then the tablet (its earlier q-002 arrives last), then the phone again."
on phone sync
on tablet sync
on phone sync
on phone conflicts
on tablet ls "users/$student/pending_responses"
on tablet get "users/$student/pending_responses/${assessment}_q-002"

echo
for d in phone tablet; do
    check "$d: one response per question id" equal "$(questions "$d")" "q-001 q-002 q-003 "
    check "$d: the duplicate q-002 keeps the later answered_at (the phone's)" \
        equal "$(field "$d" "users/$student/pending_responses/${assessment}_q-002" answered_at)" 1698378460000
    check "$d: and its answer" \
        equal "$(field "$d" "users/$student/pending_responses/${assessment}_q-002" response_data answer)" '"84"'
    check "$d: the submitted assessment is the phone's, unchanged" \
        equal "$(field "$d" "users/$student/submitted_assessments/$assessment" submitted_at)" 1698378600000
    check "$d: the phone's four queued operations" equal "$(ids "$d" "users/$student/devices/phone/sync_queue")" "1 2 3 4 "
    check "$d: the tablet's queued operation" equal "$(ids "$d" "users/$student/devices/tablet/sync_queue")" "1 "
    check "$d: each device's cached copy, the phone's marked completed" equal \
        "$(field "$d" "users/$student/devices/phone/cached_assessments/$assessment" is_completed) $(field "$d" "users/$student/devices/tablet/cached_assessments/$assessment" is_completed)" "true false"
    check "$d: every document valid" quietly "$d" validate
done
check "the resubmission was refused" equal "$resubmitted" no
check "the merge recorded the replaced q-002 answer (the tablet's resp-7f3a)" \
    eval "quietly phone conflicts | grep 'pending_responses/${assessment}_q-002' | grep -q 'replaced { \"answered_at\": 1698378100000, \"id\": \"resp-7f3a\"'"
on tablet get "users/$student/pending_responses/${assessment}_q-002" --at HEAD~1
check "the replaced answer stays in the history (the tablet's side of the merge)" \
    equal "$(quietly tablet get "users/$student/pending_responses/${assessment}_q-002" --at HEAD~1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')" resp-7f3a
check "phone and tablet converged with the server" converged "$student" phone tablet

echo
echo "# Seed 001 §6: the assessments themselves are shared content, published by their teacher on the"
echo "# same server (one repository each); the phone downloads two of them for offline use."
content assessments edumind-content teacher algebra-quiz-2 geometry-quiz-1
# question ORDER PROMPT ANSWER: a true/false question of one point.
question() { echo "{\"type\":\"true_false\",\"order\":$1,\"prompt\":\"$2\",\"correctAnswers\":[\"$3\"],\"points\":1}"; }
quiz() { echo "{\"title\":\"$1\",\"timeLimitSeconds\":600,\"publishedAt\":\"$2\",\"publishedBy\":\"teacher\",\"questionCount\":2}"; }
publish assessments algebra-quiz-2 "Algebra Quiz 2" \
    assessments/algebra-quiz-2 "$(quiz "Algebra Quiz 2" 2023-10-26T08:00:00Z)" \
    assessments/algebra-quiz-2/questions/q-001 "$(question 1 "x + 1 = 2 when x = 1" true)" \
    assessments/algebra-quiz-2/questions/q-002 "$(question 2 "2x = 4 when x = 3" false)"
publish assessments geometry-quiz-1 "Geometry Quiz 1" \
    assessments/geometry-quiz-1 "$(quiz "Geometry Quiz 1" 2023-10-26T08:00:00Z)" \
    assessments/geometry-quiz-1/questions/q-001 "$(question 1 "A square has four sides" true)" \
    assessments/geometry-quiz-1/questions/q-002 "$(question 2 "A triangle has four sides" false)"
on phone content download assessments algebra-quiz-2
on phone content download assessments geometry-quiz-1
algebra_v1="$(git --git-dir "$work/phone/.content/assessments/algebra-quiz-2.git" rev-parse main)"

echo
echo "# Offline, the student reads the questions from the cache and answers both assessments; Cairn"
echo "# pins each response to the version it answered (content_version)."
on phone content get assessments/algebra-quiz-2/questions/q-002
# answer ASSESSMENT QUESTION UUID ANSWER ANSWERED_AT: a pending response to downloaded content.
answer() {
    put phone "users/$student/pending_responses/$1_$2" \
        "{\"id\":\"$3\",\"student_id\":\"$student\",\"assessment_id\":\"$1\",\"question_id\":\"$2\",\"response_data\":{\"answer\":\"$4\",\"timeSpentMs\":30000},\"answered_at\":$5}"
}
answer algebra-quiz-2 q-001 resp-a201 true 1698400000000
answer algebra-quiz-2 q-002 resp-a202 false 1698400030000
answer geometry-quiz-1 q-001 resp-g101 true 1698400100000
answer geometry-quiz-1 q-002 resp-g102 false 1698400130000
on phone checkpoint -m "Two downloaded assessments answered offline"
on phone content ls
check "each response names the version it answered" \
    equal "$(field phone "users/$student/pending_responses/algebra-quiz-2_q-001" content_version)" "\"$algebra_v1\""
check "the storage screen counts 2 pending responses per assessment" \
    equal "$(quietly phone content ls --json | python3 -c 'import json,sys; print(" ".join(str(i["pending"]) for i in json.load(sys.stdin)["items"]))')" "2 2"

echo
echo "# Meanwhile, on the server: the teacher rewords q-002 of the algebra quiz (scenario 1: version 2),"
echo "# and deletes the geometry quiz (scenario 3)."
publish assessments algebra-quiz-2 "q-002 reworded" \
    assessments/algebra-quiz-2/questions/q-002 "$(question 2 "2x = 4 when x = 5" false)"
step server "cairn server content rm \$work/server assessments geometry-quiz-1"
"$CAIRN_BIN" server content rm "$work/server" assessments geometry-quiz-1
before="$(git --git-dir "$(remote "$student")" rev-parse main)"

echo
echo "# Back online, the phone syncs: it merges, but holds both assessments' answers and pushes nothing."
step phone "cairn sync"
held="$(quietly phone sync 2>&1)" && held_status=0 || held_status=$?
echo "$held"
check "the sync exits 1 and pushes nothing" equal "$held_status $(git --git-dir "$(remote "$student")" rev-parse main)" "1 $before"
check "the updated assessment's answers are held, named per document (scenario 1)" \
    equal "$(grep -c "held users/$student/pending_responses/algebra-quiz-2_q-00[12]: assessments/algebra-quiz-2 version 1 (${algebra_v1:0:7}) was updated" <<<"$held")" 2
check "the deleted assessment's answers are held and flagged (scenario 3)" \
    equal "$(grep -c "held users/$student/pending_responses/geometry-quiz-1_q-00[12]: .*deleted" <<<"$held")" 2

echo
echo "# The student submits the algebra answers anyway; the geometry answers cannot be submitted:"
echo "# the student puts them aside (kept in history, nothing lost silently)."
on phone content submit-anyway assessments algebra-quiz-2
on phone content discard assessments geometry-quiz-1
on phone sync
on tablet sync
on tablet log -n 3
check "the algebra answers reached the server, pinned to version 1" \
    equal "$(field tablet "users/$student/pending_responses/algebra-quiz-2_q-002" content_version)" "\"$algebra_v1\""
check "the decision is in the server's history (its trailer)" \
    grep -q "Cairn-Content-Decision: submit-anyway assessments/algebra-quiz-2 $algebra_v1" <<<"$(git --git-dir "$(remote "$student")" log --format=%B main)"
check "the geometry answers are not in the server's tree" \
    equal "$(quietly tablet ls "users/$student/pending_responses" | grep -c geometry)" 0
check "but they stay in its history: added, then put aside" \
    equal "$(git --git-dir "$(remote "$student")" log --format=%h main -- "users/$student/pending_responses/geometry-quiz-1_q-001.json" | wc -l)" 2
check "nothing is pending, and the deleted assessment left the device's cache" \
    equal "$(quietly phone content ls --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pending"], [i["item"] for i in d["items"]])')" "0 ['algebra-quiz-2']"
check "phone and tablet converged with the server again" converged "$student" phone tablet
echo "(one answer per question, the later one kept, the submission as sent; converged; nothing lost)"
echo "(content: the updated assessment submitted anyway, recorded; the deleted one's answers held, then put aside in history)"

echo
echo "# Seed 001 §13: the local database is encrypted, its key in the platform's secure storage."
echo "# A second student's store is encrypted at rest; the key file stands for the Keychain."
secure=u2
server "$secure" edumind
on phone init "$secure" --schema edumind --remote "$(remote "$secure")" --encrypted --key-file "$work/keys/$secure.key"
on phone use "$secure"
put phone "users/$secure/pending_responses/history-quiz-1_q-001" \
    "{\"id\":\"resp-s101\",\"student_id\":\"$secure\",\"assessment_id\":\"history-quiz-1\",\"question_id\":\"q-001\",\"response_data\":{\"answer\":\"Hypotenuse-Marigold\",\"timeSpentMs\":41000},\"answered_at\":1698500000000}"
on phone --user "$secure" sync
on tablet clone "$(remote "$secure")" --key-file "$work/keys/$secure.key"
on tablet --user "$secure" get "users/$secure/pending_responses/history-quiz-1_q-001"
step tablet "git log -p -1   # JSON where the key is (Cairn's text converter)"
git -C "$work/tablet/$secure" log -p -1 --format=%s | grep -E '^\+ ' | head -4
# plaintext DIR: whether the answer appears in any file or any inflated object under DIR.
plaintext() {
    grep -rqa "Hypotenuse-Marigold" "$1" && return 0
    git --git-dir "$2" cat-file --batch-all-objects --batch | grep -qa "Hypotenuse-Marigold"
}
check "the tablet reads the answer with the key" \
    equal "$(quietly tablet --user "$secure" get "users/$secure/pending_responses/history-quiz-1_q-001" | grep -c Hypotenuse-Marigold)" 1
check "no file and no object of the phone, the tablet or the server holds the answer in the clear" \
    bash -c "! { $(declare -f plaintext); plaintext '$work/phone/$secure' '$work/phone/$secure/.git' || plaintext '$work/tablet/$secure' '$work/tablet/$secure/.git' || plaintext '$(remote "$secure")' '$(remote "$secure")'; }"
check "a device without the key is refused in one line, nothing written" \
    equal "$(CAIRN_KEY_FILE=/nonexistent quietly tablet --user "$secure" get "users/$secure/pending_responses/history-quiz-1_q-001" 2>&1 | wc -l)" 1
check "phone and tablet converged through the encrypted remote" converged "$secure" phone tablet
check "every history verifies: cairn verify on each device and on the server" verified
echo "(encrypted at rest: the same tree on both devices, JSON through git where the key is, nothing in the clear elsewhere)"
