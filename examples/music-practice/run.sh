#!/usr/bin/env bash
# Music practice, an app that brings its own schema set (schema/music-practice here, given
# to init by its folder): a pianist practises Clair de lune on a phone in the morning and on a
# laptop in the evening, both offline, then both sync. Every policy of the set decides
# something — a passage's latest status, the best tempo, minutes added up, tags and pieces
# united, the later profile edit with the latest practice time, a milestone reached on both
# devices kept once — and the script checks each result through `--json`, as a script or a CI
# job reads Cairn.
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib.sh"
command -v jq >/dev/null || { echo "jq is needed (apt-get install jq, or bash scripts/install-deps.sh --tests)" >&2; exit 1; }

set="$here/schema/music-practice"
piece=users/u1/pieces/clair-de-lune
sessions="$piece/sessions"
milestones="$piece/milestones"

# js DEVICE FILTER ARGS…: `cairn ARGS… --json` on that device, read with a jq filter (one line).
js() { local device="$1" filter="$2"; shift 2; quietly "$device" "$@" --json | jq -c "$filter"; }

# session DEVICE ID STARTED MINUTES TEMPO PASSAGE: one practice session.
session() {
    put "$1" "$sessions/$2" "{\"startedAt\":\"$3\",\"minutes\":$4,\"tempo\":$5,\"passage\":\"$6\",\"device\":\"$1\"}"
}

server u1 "$set"
on phone init u1 --schema "$set" --remote "$(remote u1)"

echo
echo "# The phone, the first evening: the profile, the repertoire, the piece, a session, a milestone."
put phone users/u1/profile/main '{"displayName":"Ana","instrument":"piano","dailyGoalMinutes":30,"lastPracticedAt":"2026-11-20T18:00:00Z","updatedAt":1795200000000}'
put phone users/u1/repertoire/main '{"pieces":["clair-de-lune"],"wishlist":["gymnopedie-1"],"updatedAt":1795200000000}'
put phone "$piece" '{"title":"Clair de lune","composer":"Claude Debussy","passages":{"opening":{"status":"solid","tempo":54,"updatedAt":1795200000000},"arpeggios":{"status":"learning","tempo":40,"updatedAt":1795200000000}},"bestTempo":54,"minutesPracticed":35,"tags":["impressionist"]}'
session phone 20261120T180000Z-phone 2026-11-20T18:00:00Z 35 54 opening
put phone "$milestones/first-read" '{"reachedAt":"2026-11-20T18:35:00Z","device":"phone"}'
on phone checkpoint -m "First practice"
on phone sync
on laptop clone "$(remote u1)"
check "the laptop restored the phone's piece, its session counted" \
    equal "$(js laptop '.document | [.sessionCount, .milestoneCount, .passageCount]' get "$piece")" "[1,1,2]"

echo
echo "# Both offline. The phone, in the morning: 25 minutes on the opening, now ready at 60;"
echo "# the arpeggios shaky at 48; the opening memorized; a tag and a piece added."
session phone 20261121T073000Z-phone 2026-11-21T07:30:00Z 25 60 opening
put phone "$milestones/memorized" '{"reachedAt":"2026-11-21T07:55:00Z","tempo":60,"device":"phone"}'
put phone "$piece" '{"title":"Clair de lune","composer":"Claude Debussy","passages":{"opening":{"status":"ready","tempo":60,"updatedAt":1795247400000},"arpeggios":{"status":"shaky","tempo":48,"updatedAt":1795247700000}},"bestTempo":60,"minutesPracticed":60,"tags":["impressionist","recital"]}'
put phone users/u1/repertoire/main '{"pieces":["clair-de-lune","arabesque-1"],"wishlist":["gymnopedie-1"],"updatedAt":1795247700000}'
on phone checkpoint -m "Morning practice"
echo "# Late that night, still offline, the phone edits the profile: a new name, a daily goal of 45."
put phone users/u1/profile/main '{"displayName":"Ana Lima","instrument":"piano","dailyGoalMinutes":45,"lastPracticedAt":"2026-11-21T07:30:00Z","updatedAt":1795298400000}'
on phone checkpoint -m "Profile"

echo "# The laptop, in the evening: 40 minutes on the arpeggios, solid at 66; the climax begun;"
echo "# the piece memorized (on this device too); another tag, another piece, a wish."
session laptop 20261121T190000Z-laptop 2026-11-21T19:00:00Z 40 66 arpeggios
put laptop "$milestones/memorized" '{"reachedAt":"2026-11-21T19:40:00Z","tempo":66,"device":"laptop"}'
put laptop "$piece" '{"title":"Clair de lune","composer":"Claude Debussy","passages":{"opening":{"status":"solid","tempo":54,"updatedAt":1795200000000},"arpeggios":{"status":"solid","tempo":66,"updatedAt":1795290300000},"climax":{"status":"learning","tempo":44,"updatedAt":1795290600000}},"bestTempo":66,"minutesPracticed":75,"tags":["impressionist","left-hand"]}'
put laptop users/u1/repertoire/main '{"pieces":["clair-de-lune","reverie"],"wishlist":["gymnopedie-1","golliwogs-cakewalk"],"updatedAt":1795290600000}'
put laptop users/u1/profile/main '{"displayName":"Ana","instrument":"piano","dailyGoalMinutes":30,"lastPracticedAt":"2026-11-21T19:00:00Z","updatedAt":1795290300000}'
on laptop checkpoint -m "Evening practice"
on laptop status --json

echo
echo "# Back online: the phone pushes, the laptop merges, the phone fast-forwards."
phone="$(js phone '.head.id' status)"
on phone sync
step laptop "cairn sync --json"
merged="$(quietly laptop sync --json)"
echo "$merged"
on phone sync
on phone conflicts

echo
check "the laptop merged, and both devices and the server are on that merge" \
    equal "$(jq -c '[.integration, .merge == .head, .pushed]' <<<"$merged")" '["merged",true,2]'
check "the merge's second parent is the phone's last checkpoint" \
    equal "$(js laptop '.checkpoints[0].parents[1]' log -n 1)" "$phone"
check "the phone fast-forwarded to the laptop's merge" \
    equal "$(js phone '.head.id' status)" "$(jq -c '.head' <<<"$merged")"
check "the same tree on both devices and the server, clean and sound" converged u1 phone laptop

# decided POINTER-OF-DOCUMENT POLICY: whether the laptop's sync recorded a decision there.
decided() {
    jq -e --arg document "$1" --arg pointer "$2" --arg policy "$3" \
        'any(.conflicts[]; .document == $document and .pointer == $pointer and .policy == $policy)' <<<"$merged" >/dev/null
}

echo
echo "# entries latest by updatedAt: each passage is its latest status, from whichever device."
check "the arpeggios: the laptop's (19:45) over the phone's (07:55), recorded as lww of the entry" \
    decided "$piece" /passages/arpeggios "lww(updatedAt)"
check "passages: the opening ready (phone), the arpeggios solid (laptop), the climax begun (laptop)" \
    equal "$(js phone '.document.passages | map_values(.status)' get "$piece")" '{"arpeggios":"solid","climax":"learning","opening":"ready"}'
echo "# max: the best tempo is never lowered."
check "bestTempo: 66 (laptop) over 60 (phone), recorded" decided "$piece" /bestTempo max
check "bestTempo is 66" equal "$(js laptop '.document.bestTempo' get "$piece")" 66
echo "# counter: the minutes practised on each device add up."
check "minutesPracticed: 35 + 25 (phone) + 40 (laptop) = 100" \
    equal "$(js phone '.document.minutesPracticed' get "$piece")" 100
sum=0
for id in $(js laptop '.documents[].id' ls "$sessions" | tr -d '"'); do
    sum=$((sum + $(js laptop '.document.minutes' get "$sessions/$id")))
done
check "the counter equals the minutes of the sessions kept" equal "$sum" 100
echo "# union: tags, pieces and wishes from both devices."
check "tags: both devices' tags" \
    equal "$(js phone '.document.tags | sort' get "$piece")" '["impressionist","left-hand","recital"]'
check "the repertoire holds every piece added, the wishlist every wish" \
    equal "$(js laptop '.document | [(.pieces | sort), (.wishlist | sort), .updatedAt]' get users/u1/repertoire/main)" \
    '[["arabesque-1","clair-de-lune","reverie"],["golliwogs-cakewalk","gymnopedie-1"],1795290600000]'
echo "# lww by updatedAt, with max inside: the later edit of the profile, the latest practice time."
check "the profile: the phone's edit (22:00) over the laptop's (19:45), recorded" \
    decided users/u1/profile/main "" "lww(updatedAt)"
check "lastPracticedAt: the laptop's 19:00 over the phone's 07:30, recorded" \
    decided users/u1/profile/main /lastPracticedAt max
check "the phone's name and goal, the laptop's later practice time" \
    equal "$(js laptop '.document | [.displayName, .dailyGoalMinutes, .lastPracticedAt, .updatedAt]' get users/u1/profile/main)" \
    '["Ana Lima",45,"2026-11-21T19:00:00Z",1795298400000]'
echo "# append-only: every session kept; the milestone reached on both devices kept once."
check "three sessions: the first, the phone's morning, the laptop's evening" \
    equal "$(js phone '[.documents[].id]' ls "$sessions")" '["20261120T180000Z-phone","20261121T073000Z-phone","20261121T190000Z-laptop"]'
check "the milestone reached twice is kept once, the other recorded" decided "$milestones/memorized" "" append-only
check "the milestone kept is the one the record kept" \
    equal "$(js phone '.document' get "$milestones/memorized")" \
    "$(jq -c --arg document "$milestones/memorized" '.conflicts[] | select(.document == $document) | .kept' <<<"$merged")"
check "the laptop's own milestone stays in its history (the merge's first parent)" \
    equal "$(js laptop '.document.device' get "$milestones/memorized" --at HEAD^1)" '"laptop"'
check "the phone's own milestone too (the merge's second parent)" \
    equal "$(js laptop '.document.device' get "$milestones/memorized" --at HEAD^2)" '"phone"'
echo "# derived: counts and a ratio computed again after the merge, never merged."
check "3 sessions, 2 milestones, 3 passages, 1 ready: readiness 1/3" \
    equal "$(js phone '.document | [.sessionCount, .milestoneCount, .passageCount, .readyPassages, (.readiness * 100 | round), .lastPassage]' get "$piece")" \
    '[3,2,3,1,3333,"climax"]'

echo
check "cairn conflicts on the phone lists the decisions of the laptop's sync" \
    equal "$(js phone '.merges[0].conflicts' conflicts)" "$(jq -c '.conflicts' <<<"$merged")"
for d in phone laptop; do
    check "$d: nothing pending, nothing to push, synced at its head" \
        equal "$(js "$d" '[.pending, .remote.unpushed, .remote.lastSynced == .head.id]' status)" '[[],0,true]'
    check "$d: every document valid" equal "$(js "$d" '.' validate)" '{"findings":[],"valid":true}'
done

echo "(two devices converged: every policy of the set decided, each decision recorded)"

echo
echo "# The app's own checks, as its CI runs them (README: \"In the app's CI\")."
step ci "cairn schema check schema/music-practice"
"$CAIRN_BIN" schema check "$set"
step ci "cairn test scenarios --junit \$work/junit.xml"
"$CAIRN_BIN" test "$here/scenarios" --junit "$work/junit.xml"
check "the JUnit report counts every scenario, none failed" \
    equal "$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get("tests"), r.get("failures"), r.get("errors"))' "$work/junit.xml")" "6 0 0"
step ci "cairn simulate --schema schema/music-practice --schedules 10"
"$CAIRN_BIN" simulate --schema "$set" --devices 3 --steps 40 --schedules 10 --seed 1
step ci "cairn schema laws schema/music-practice"
"$CAIRN_BIN" schema laws "$set" --cases 300 --seed 1
check "every history verifies: cairn verify on each device and on the server" verified
