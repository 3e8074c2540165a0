#!/usr/bin/env bash
# Seed 002, Halloo/Remi: a caregiver's profiles (elderly parents, keyed by E.164 phone number)
# with their habits and SMS messages nested under each profile, on a phone and a tablet that
# sync through a bare remote. Both add profiles offline and complete the same habit; then the
# tablet deletes a profile with its subcollections (the seed's cascade delete). Checks: the
# user's profileCount and taskCount follow, completions on both devices add up, no orphaned
# habit or message remains on either device, and both end on the server's tree. Last, the
# seed's flat layout (schema remi-v1) is migrated to the nested one (remi) on a third store.
source "$(dirname "$0")/../lib.sh"

uid=u1
rose=+447700900123      # Grandma Rose, profile added on the phone
joe=+15551234567        # Grandpa Joe, profile added on the tablet
u="users/$uid"

# profile DEVICE PHONE NAME: a profile whose ID is its phone number ("Option A").
profile() {
    put "$1" "$u/profiles/$2" "{\"id\":\"$2\",\"userId\":\"$uid\",\"name\":\"$3\",\"phoneNumber\":\"$2\",\"relationship\":\"Grandparent\",\"isEmergencyContact\":false,\"timeZone\":\"Europe/London\",\"status\":\"confirmed\",\"createdAt\":\"2025-10-03T12:00:00Z\",\"confirmedAt\":\"2025-10-03T12:15:00Z\"}"
}
# habit DEVICE PHONE ID TITLE CATEGORY COMPLETIONS: a habit of that profile (a UUID in the app).
habit() {
    put "$1" "$u/profiles/$2/habits/$3" "{\"id\":\"$3\",\"userId\":\"$uid\",\"profileId\":\"$2\",\"title\":\"$4\",\"category\":\"$5\",\"frequency\":\"daily\",\"scheduledTime\":\"2025-10-03T09:00:00Z\",\"deadlineMinutes\":10,\"requiresPhoto\":true,\"requiresText\":false,\"customDays\":[\"monday\",\"wednesday\",\"friday\"],\"startDate\":\"2025-10-03T00:00:00Z\",\"endDate\":null,\"status\":\"active\",\"createdAt\":\"2025-10-03T12:00:00Z\",\"lastModifiedAt\":\"2025-10-03T12:00:00Z\",\"completionCount\":$6,\"lastCompletedAt\":null,\"nextScheduledDate\":\"2025-10-04T09:00:00Z\"}"
}
# message DEVICE PHONE ID HABIT TEXT: an SMS response of that profile to one of its habits.
message() {
    put "$1" "$u/profiles/$2/messages/$3" "{\"id\":\"$3\",\"taskId\":\"$4\",\"profileId\":\"$2\",\"userId\":\"$uid\",\"textResponse\":\"$5\",\"photoData\":null,\"photoURL\":null,\"isCompleted\":true,\"receivedAt\":\"2025-10-03T09:05:00Z\",\"responseType\":\"text\",\"isConfirmationResponse\":false,\"isPositiveConfirmation\":false,\"responseScore\":0.95}"
}
# complete DEVICE PHONE ID COUNT AT: that device records a completion of the habit at AT, its
# completionCount now COUNT on that device (a counter: the merge adds what each side added).
complete() {
    quietly "$1" get "$u/profiles/$2/habits/$3" | python3 -c 'import json,sys; d=json.load(sys.stdin)
d["completionCount"]=int(sys.argv[1]); d["lastCompletedAt"]=sys.argv[2]; print(json.dumps(d))' "$4" "$5" \
        | { step "$1" "cairn put $u/profiles/$2/habits/$3 <<< '{… \"completionCount\":$4,\"lastCompletedAt\":\"$5\" …}'"
            quietly "$1" put "$u/profiles/$2/habits/$3"; }
}
ids() { quietly "$1" ls "$2" | tr '\n' ' '; }

server "$uid" remi
on phone init "$uid" --schema remi --remote "$(remote "$uid")"
put phone "$u" "{\"id\":\"$uid\",\"email\":\"user@example.com\",\"fullName\":\"John Doe\",\"phoneNumber\":\"+15550001111\",\"createdAt\":\"2025-10-03T12:00:00Z\",\"isOnboardingComplete\":true,\"subscriptionStatus\":\"trial\",\"trialEndDate\":\"2025-10-17T12:00:00Z\",\"quizAnswers\":{\"q1\":\"answer1\"},\"updatedAt\":\"2025-10-03T12:00:00Z\",\"lastSyncTimestamp\":null}"
profile phone "$rose" "Grandma Rose"
habit phone "$rose" habit-med "Take Morning Medication" medication 5
habit phone "$rose" habit-walk "Evening Walk" exercise 0
message phone "$rose" msg-1 habit-med "Done! Feeling great today"
message phone "$rose" msg-2 habit-walk "Walked to the park"
on phone sync
on phone get "$u"
check "phone: profileCount counts Rose" equal "$(field phone "$u" profileCount)" 1
check "phone: taskCount counts her two habits" equal "$(field phone "$u" taskCount)" 2

on tablet clone "$(remote "$uid")"

echo
echo "# Both offline: the tablet adds Grandpa Joe; Rose's medication is marked done on both devices."
profile tablet "$joe" "Grandpa Joe"
habit tablet "$joe" habit-bp "Check Blood Pressure" health 0
message tablet "$joe" SM0123456789abcdef0123456789abcdef habit-bp "124 over 80"
complete tablet "$rose" habit-med 6 "2025-10-04T09:03:00Z"
complete phone "$rose" habit-med 6 "2025-10-04T09:04:00Z"
complete phone "$rose" habit-med 7 "2025-10-05T09:02:00Z"

echo
echo "# Back online: the phone, the tablet (which merges), the phone again."
on phone sync
on tablet sync
on phone sync
on phone get "$u/profiles/$rose/habits/habit-med"
for d in phone tablet; do
    check "$d: both profiles" equal "$(ids "$d" "$u/profiles")" "$joe $rose "
    check "$d: profileCount 2" equal "$(field "$d" "$u" profileCount)" 2
    check "$d: taskCount 3" equal "$(field "$d" "$u" taskCount)" 3
    check "$d: completions from both devices add up (5 + 1 + 2)" \
        equal "$(field "$d" "$u/profiles/$rose/habits/habit-med" completionCount)" 8
    check "$d: the latest completion kept" \
        equal "$(field "$d" "$u/profiles/$rose/habits/habit-med" lastCompletedAt)" '"2025-10-05T09:02:00Z"'
done

echo
echo "# The tablet deletes Grandma Rose's profile: her habits and messages go with it."
on tablet rm -r "$u/profiles/$rose"
on tablet sync
on phone sync
on phone ls "$u/profiles"
on phone get "$u"
for d in phone tablet; do
    check "$d: only Joe's profile left" equal "$(ids "$d" "$u/profiles")" "$joe "
    check "$d: no orphaned habit of Rose" equal "$(ids "$d" "$u/profiles/$rose/habits")" ""
    check "$d: no orphaned message of Rose" equal "$(ids "$d" "$u/profiles/$rose/messages")" ""
    check "$d: nothing of Rose's left on disk" eval "! ls -d '$work/$d/$uid/$u/profiles/$rose'* 2>/dev/null"
    check "$d: Joe's habit and message kept" \
        equal "$(ids "$d" "$u/profiles/$joe/habits")$(ids "$d" "$u/profiles/$joe/messages")" "habit-bp SM0123456789abcdef0123456789abcdef "
    check "$d: profileCount drops to 1" equal "$(field "$d" "$u" profileCount)" 1
    check "$d: taskCount drops to 1" equal "$(field "$d" "$u" taskCount)" 1
done
check "phone and tablet converged with the server" converged "$uid" phone tablet

echo
echo "# The seed's TODO #1 on an older store: flat tasks and responses (remi-v1) move under their profile."
on laptop init u2 --schema remi-v1
put laptop users/u2 '{"id":"u2","email":"ann@example.com","fullName":"Ann Lee","phoneNumber":"","createdAt":"2025-09-01T08:00:00Z"}'
put laptop "users/u2/profiles/$joe" "{\"id\":\"$joe\",\"userId\":\"u2\",\"phoneNumber\":\"$joe\",\"createdAt\":\"2025-09-01T08:00:00Z\"}"
put laptop users/u2/tasks/task-1 "{\"id\":\"task-1\",\"userId\":\"u2\",\"profileId\":\"$joe\",\"scheduledTime\":\"2025-09-02T09:00:00Z\",\"nextScheduledDate\":\"2025-09-03T09:00:00Z\",\"completionCount\":3}"
put laptop users/u2/responses/resp-1 "{\"id\":\"resp-1\",\"taskId\":\"task-1\",\"profileId\":\"$joe\",\"userId\":\"u2\",\"receivedAt\":\"2025-09-02T09:04:00Z\",\"responseType\":\"text\"}"
on laptop checkpoint -m "Flat layout"
on laptop migrate --schema remi
check "laptop: the task is now a habit of its profile" equal "$(ids laptop "users/u2/profiles/$joe/habits")" "task-1 "
check "laptop: the response is now a message of its profile" equal "$(ids laptop "users/u2/profiles/$joe/messages")" "resp-1 "
check "laptop: no flat task or response left" equal "$(ids laptop users/u2/tasks)$(ids laptop users/u2/responses)" ""
check "laptop: the migrated habit keeps its completions" equal "$(field laptop "users/u2/profiles/$joe/habits/task-1" completionCount)" 3
check "laptop: taskCount now counts habits under profiles" equal "$(field laptop users/u2 taskCount)" 1
check "laptop: every document valid" quietly laptop validate
check "every history verifies: cairn verify on each device and on the server" verified
echo "(profiles and counts converged, completions added up, the cascade delete left no orphans; nothing lost)"
