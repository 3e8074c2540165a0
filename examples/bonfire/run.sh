#!/usr/bin/env bash
# Bonfire (seed 003): one learner's private progress on a phone, a tablet and a laptop, all
# offline at once, then synced through a bare remote. Word-progress counters add up across
# the devices (no review lost), book progress merges field by field (the reading position
# never goes back, the first completion stays), every reading session is kept, and a badge
# earned on two devices is awarded once. The book itself is shared content: published by its
# author, downloaded for offline reading, and updated by its changes alone.
source "$(dirname "$0")/../lib.sh"

words=users/u1/wordProgress
books=users/u1/bookProgress
sessions=users/u1/readingSessions

# word DEVICE ID LEMMA PROFICIENCY CORRECT INCORRECT REVIEWED-AT: a word's spaced-repetition
# state as that device's app writes it: its own running totals.
word() {
    put "$1" "$words/$2" "{\"user\":\"u1\",\"book\":\"starry-forest\",\"lemma\":\"$3\",\"proficiency\":$4,\"correctCount\":$5,\"incorrectCount\":$6,\"lastReviewedAt\":\"$7\"}"
}

# session DEVICE ID STARTED DURATION WORDS START-PAGE END-PAGE: one reading session.
session() {
    put "$1" "$sessions/$2" "{\"user\":\"u1\",\"book\":\"starry-forest\",\"startedAt\":\"$3\",\"durationSeconds\":$4,\"wordsRead\":$5,\"startPageIndex\":$6,\"endPageIndex\":$7}"
}

server u1 bonfire
on phone init u1 --schema bonfire --remote "$(remote u1)"

echo
echo "# The book every learner reads (Bonfire's public content): its author publishes it on the"
echo "# server; the phone downloads it for offline reading, as every device will."
content books bonfire-content ana starry-forest
book=books/starry-forest
# variant PAGE LANGUAGE KIND ORDER TEXT: the path and the document of one text variant of a page.
variant() {
    printf '%s\n%s\n' "$book/pages/p$1/variants/$2" "{\"kind\":\"$3\",\"languageCode\":\"$2\",\"content\":\"$5\",\"displayOrder\":$4}"
}
mapfile -t pages < <(
    for n in 0 1 2; do printf '%s\n%s\n' "$book/pages/p$n" "{\"index\":$n,\"estimatedWordCount\":6}"; done
    variant 0 es original 0 "El bosque duerme bajo las estrellas."
    variant 0 en translation 1 "The forest sleeps under the stars."
    variant 1 es original 0 "Una luna grande mira el bosque."
    variant 1 en translation 1 "A big moon watches the forest."
    variant 2 es original 0 "La estrella baja al bosque."
    variant 2 en translation 1 "The star comes down to the forest.")
publish books starry-forest "Starry Forest Adventure" \
    "$book" '{"title":"Starry Forest Adventure","author":"Ana Ruiz","summary":"A star visits a sleeping forest.","level":"A1","topic":"nature","length":"short","pageCount":3}' \
    "${pages[@]}"
on phone content download books starry-forest
on phone content get "$book/pages/p1/variants/es"
check "the phone holds version 1 of the book, read from its cache" \
    equal "$(quietly phone content get "$book/pages/p1/variants/en" | python3 -c 'import json,sys; print(json.load(sys.stdin)["content"])')" "A big moon watches the forest."

echo
echo "# The phone: the learner's profile, a first session of Starry Forest Adventure, two words."
put phone users/u1/profile/main '{"displayName":"Mia","preferredLocale":"es-ES","readingStreak":1,"lastSessionAt":"2026-11-20T18:10:00Z","updatedAt":"2026-11-20T18:10:00Z"}'
session phone 7f1c2a90-0001 2026-11-20T18:00:00Z 600 140 0 0
put phone "$books/starry-forest" '{"user":"u1","book":"starry-forest","lastPageIndex":0,"percentComplete":33.3,"lastOpenedAt":"2026-11-20T18:00:00Z"}'
word phone bosque bosque 0.4 3 2 2026-11-20T18:05:00Z
word phone estrella estrella 0.5 2 1 2026-11-20T18:06:00Z
on phone sync
on tablet clone "$(remote u1)"
on laptop clone "$(remote u1)"

echo
echo "# All three offline. The phone: a session on page 1, 4 right and 1 wrong on \"bosque\"."
session phone 7f1c2a90-0002 2026-11-21T07:30:00Z 540 120 1 1
word phone bosque bosque 0.6 7 3 2026-11-21T07:35:00Z
put phone "$books/starry-forest" '{"user":"u1","book":"starry-forest","lastPageIndex":1,"percentComplete":66.7,"lastOpenedAt":"2026-11-21T07:30:00Z"}'
put phone users/u1/profile/main '{"displayName":"Mia","preferredLocale":"es-ES","readingStreak":2,"lastSessionAt":"2026-11-21T07:39:00Z","updatedAt":"2026-11-21T07:39:00Z"}'
on phone checkpoint -m "Morning session"
echo "# Late that night, still offline, the phone changes the display name."
put phone users/u1/profile/main '{"displayName":"Mia Garcia","preferredLocale":"es-ES","readingStreak":2,"lastSessionAt":"2026-11-21T07:39:00Z","updatedAt":"2026-11-21T23:00:00Z"}'
on phone checkpoint -m "Display name"

echo "# The tablet: a long session to the last page, the book completed and its badge earned;"
echo "# 2 right and 2 wrong on \"bosque\", 5 right on \"estrella\", a new word \"luna\"."
session tablet 3b9e44d1-0001 2026-11-21T19:00:00Z 1500 300 0 2
word tablet bosque bosque 0.45 5 4 2026-11-21T19:10:00Z
word tablet estrella estrella 0.8 7 1 2026-11-21T19:12:00Z
word tablet luna luna 0.5 1 0 2026-11-21T19:20:00Z
put tablet "$books/starry-forest" '{"user":"u1","book":"starry-forest","lastPageIndex":2,"percentComplete":100,"lastOpenedAt":"2026-11-21T19:00:00Z","completedAt":"2026-11-21T19:25:00Z"}'
put tablet users/u1/profile/main '{"displayName":"Mia","preferredLocale":"es-ES","readingStreak":2,"lastSessionAt":"2026-11-21T19:25:00Z","updatedAt":"2026-11-21T19:25:00Z"}'
put tablet users/u1/achievements/first-book '{"user":"u1","code":"first-book","earnedAt":"2026-11-21T19:25:00Z","progressValue":1,"detail":"Starry Forest Adventure"}'
on tablet checkpoint -m "Evening session"

echo "# The laptop: the same book read to the end later that night (completed and badge again),"
echo "# 1 right on \"bosque\", and \"luna\" met there too: 2 right, 1 wrong."
session laptop c05e17aa-0001 2026-11-21T22:00:00Z 900 260 0 2
word laptop bosque bosque 0.5 4 2 2026-11-21T22:05:00Z
word laptop luna luna 0.4 2 1 2026-11-21T22:10:00Z
put laptop "$books/starry-forest" '{"user":"u1","book":"starry-forest","lastPageIndex":2,"percentComplete":100,"lastOpenedAt":"2026-11-21T22:00:00Z","completedAt":"2026-11-21T22:15:00Z"}'
put laptop users/u1/profile/main '{"displayName":"Mia","preferredLocale":"es-ES","readingStreak":2,"lastSessionAt":"2026-11-21T22:15:00Z","updatedAt":"2026-11-21T22:15:00Z"}'
put laptop users/u1/achievements/first-book '{"user":"u1","code":"first-book","earnedAt":"2026-11-21T22:15:00Z","progressValue":1,"detail":"Starry Forest Adventure"}'
on laptop checkpoint -m "Late session"

echo
echo "# Back online, one after the other; then the first two again to pick up the merges."
on phone sync
on tablet sync
on laptop sync
on phone sync
on tablet sync
on phone get "$words/bosque"
on tablet get "$books/starry-forest"
on laptop conflicts

check "the three devices converged on the server's tree" converged u1 phone tablet laptop
check "bosque: right answers 3 + 4 (phone) + 2 (tablet) + 1 (laptop) = 10" \
    equal "$(field phone "$words/bosque" correctCount)" 10
check "bosque: wrong answers 2 + 1 (phone) + 2 (tablet) + 0 (laptop) = 5" \
    equal "$(field laptop "$words/bosque" incorrectCount)" 5
check "estrella: 2 + 5 (tablet only) = 7 right, 1 wrong" \
    equal "$(field tablet "$words/estrella" correctCount) $(field tablet "$words/estrella" incorrectCount)" "7 1"
check "estrella: the proficiency changed on the tablet only is the tablet's" \
    equal "$(field phone "$words/estrella" proficiency)" 0.8
check "luna, new on the tablet and the laptop: 1 + 2 = 3 right, 0 + 1 = 1 wrong" \
    equal "$(field phone "$words/luna" correctCount) $(field phone "$words/luna" incorrectCount)" "3 1"
check "bosque: the latest review is the laptop's" \
    equal "$(field tablet "$words/bosque" lastReviewedAt)" '"2026-11-21T22:05:00Z"'
check "bosque: its proficiency, changed on all three, is one value everywhere and recorded" \
    grep -q 'users/u1/wordProgress/bosque#/proficiency \[fields\] kept' <<<"$(quietly phone conflicts)"
check "the reading position never goes back: page 2, 100 %" \
    equal "$(field phone "$books/starry-forest" lastPageIndex) $(field phone "$books/starry-forest" percentComplete)" "2 100"
check "the book was last opened on the laptop" \
    equal "$(field phone "$books/starry-forest" lastOpenedAt)" '"2026-11-21T22:00:00Z"'
check "the first completion (the tablet's) is kept" \
    equal "$(field laptop "$books/starry-forest" completedAt)" '"2026-11-21T19:25:00Z"'
check "the profile is the latest edit (the phone's new name) with the latest session (the laptop's)" \
    equal "$(field tablet users/u1/profile/main displayName) $(field tablet users/u1/profile/main updatedAt) $(field tablet users/u1/profile/main lastSessionAt)" '"Mia Garcia" "2026-11-21T23:00:00Z" "2026-11-21T22:15:00Z"'
check "every session of every device is kept: 1 + 1 (phone) + 1 (tablet) + 1 (laptop)" \
    equal "$(quietly laptop ls "$sessions" | tr '\n' ' ')" "3b9e44d1-0001 7f1c2a90-0001 7f1c2a90-0002 c05e17aa-0001 "
check "each session is the one its device wrote" \
    equal "$(field phone "$sessions/c05e17aa-0001" durationSeconds) $(field laptop "$sessions/3b9e44d1-0001" wordsRead)" "900 300"
check "the badge is awarded once, the first award (the tablet's) kept" \
    equal "$(quietly phone ls users/u1/achievements) $(field phone users/u1/achievements/first-book earnedAt)" 'first-book "2026-11-21T19:25:00Z"'
check "cairn conflicts records the second award of the badge" \
    grep -q 'users/u1/achievements/first-book \[append-only\] kept { "earnedAt": "2026-11-21T19:25:00Z" }, replaced { "earnedAt": "2026-11-21T22:15:00Z" }' <<<"$(quietly phone conflicts)"
on laptop get users/u1/achievements/first-book --at HEAD^1
check "the laptop's own award stays in its history (the merge's first parent)" \
    equal "$(quietly laptop get users/u1/achievements/first-book --at HEAD^1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["earnedAt"])')" 2026-11-21T22:15:00Z
for d in phone tablet laptop; do check "$d: every document valid" quietly "$d" validate; done

echo
echo "# The author corrects a translation: version 2. The phone fetches only the change and reads"
echo "# it offline; the learner's progress is untouched by it."
publish books starry-forest "Page 2: a better translation" \
    "$book/pages/p2/variants/en" '{"kind":"translation","languageCode":"en","content":"The star comes down into the forest.","displayOrder":1}'
step phone "cairn content download books starry-forest --json"
update="$(quietly phone content download books starry-forest --json)"
echo "$update"
on phone content ls
check "the phone moved to version 2 of the book" \
    grep -q '^books/starry-forest  version 2 ' <<<"$(quietly phone content ls)"
check "the corrected page is read from the cache" \
    equal "$(quietly phone content get "$book/pages/p2/variants/en" | python3 -c 'import json,sys; print(json.load(sys.stdin)["content"])')" "The star comes down into the forest."
check "the update fetched the commit, the six folders down to the variant and the variant: 8 objects, not the book again" \
    python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if 0 < d["receivedObjects"] <= 8 and d["previous"]["version"] == 1 else 1)' <<<"$update"
check "the cache is plain git: the book's two versions in its repository" \
    equal "$(git --git-dir "$work/phone/.content/books/starry-forest.git" rev-list --count main)" 2

echo
echo "# A session with its recording (the seed's audioAsset): recorded on the phone, played on the"
echo "# tablet, then deleted by the learner — from the server and both devices, its pointer left in"
echo "# history only."
head -c 262144 /dev/urandom >"$work/evening.m4a"
step phone "cairn put $sessions/5d2e0b17-0001 --asset audioAsset=evening.m4a <<< '{…}'"
printf '%s' '{"user":"u1","book":"starry-forest","startedAt":"2026-11-22T20:00:00Z","durationSeconds":420,"wordsRead":90,"startPageIndex":0,"endPageIndex":2}' |
    "$CAIRN_BIN" --home "$work/phone" put "$sessions/5d2e0b17-0001" --asset "audioAsset=$work/evening.m4a"
oid="$(quietly phone get "$sessions/5d2e0b17-0001" | python3 -c 'import json,sys; print(json.load(sys.stdin)["audioAsset"]["oid"])')"
on phone sync
# where DEVICE-OR-SERVER…: the files holding the recording's bytes (its oid names them).
where() { find "$@" -type f -name "$oid"; }
check "the server holds the recording in its LFS objects, uploaded before the commit" \
    equal "$(where "$(remote u1)/lfs" | wc -l)" 1
on tablet sync
check "the tablet's sync brought the session, not the recording" equal "$(where "$work/tablet/u1/.git")" ""
on tablet asset get "$sessions/5d2e0b17-0001" audioAsset -o "$work/played.m4a"
check "the tablet plays the phone's recording, downloaded when first read" cmp -s "$work/played.m4a" "$work/evening.m4a"
on phone asset rm "$sessions/5d2e0b17-0001" audioAsset
on phone sync
on tablet sync
on laptop sync
check "the recording's bytes are gone from the server and every device" \
    equal "$(where "$(remote u1)" "$work/phone/u1" "$work/tablet/u1" "$work/laptop/u1")" ""
check "the session stays, its audioAsset null" equal "$(field tablet "$sessions/5d2e0b17-0001" audioAsset)" null
step tablet "cairn asset get $sessions/5d2e0b17-0001 audioAsset --at HEAD~1"
if old="$(quietly tablet asset get "$sessions/5d2e0b17-0001" audioAsset --at HEAD~1 2>&1)"; then
    echo "FAILED: the deleted recording was read back" >&2; exit 1
fi
echo "$old"
check "reading it at an old revision says it was deleted" grep -q 'was deleted' <<<"$old"
check "the three devices converged" converged u1 phone tablet laptop

check "every history verifies: cairn verify on each device and on the server" verified
echo "(three devices converged; every answer counted, every session kept, the badge awarded once; the book read offline and updated by its changes; a recording played on another device and deleted everywhere)"
