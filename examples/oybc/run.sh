#!/usr/bin/env bash
# OYBC (seed 004): one bingo board edited on a phone and a tablet while both are offline.
# Both sync through a bare remote: the board from the side with the higher version wins
# (ties by updatedAt), its squares merge one by one the same way, soft deletes travel as
# plain fields, and the board's stats are counted again from the squares after the merge.
source "$(dirname "$0")/../lib.sh"

board=users/u1/boards/week-47

# task ID TITLE: a task definition (reusable across boards), version 1.
task() {
    put phone "users/u1/tasks/$1" "{\"id\":\"$1\",\"userId\":\"u1\",\"type\":\"normal\",\"title\":\"$2\",\"createdAt\":\"2026-11-16T08:00:00Z\",\"updatedAt\":\"2026-11-16T08:00:00Z\",\"version\":1,\"isDeleted\":false}"
}

# square DEVICE TASK POSITION VERSION UPDATED-AT COMPLETED [DELETED]: the task's square on the
# board, with its completion state on this board.
square() {
    local device="$1" id="$2" position="$3" version="$4" at="$5" completed="$6" deleted="${7:-false}"
    local completedAt=null deletedAt=null
    [ "$completed" = true ] && completedAt="\"$at\""
    [ "$deleted" = true ] && deletedAt="\"$at\""
    put "$device" "$board/boardTasks/$id" "{\"id\":\"week-47-$id\",\"boardId\":\"week-47\",\"taskId\":\"$id\",\"position\":$position,\"isCompleted\":$completed,\"completedAt\":$completedAt,\"createdAt\":\"2026-11-16T08:00:00Z\",\"updatedAt\":\"$at\",\"version\":$version,\"isDeleted\":$deleted,\"deletedAt\":$deletedAt}"
}

# the_board DEVICE VERSION UPDATED-AT NAME DESCRIPTION [DELETED]: the board itself. Its stats
# are written as zeros: Cairn counts them from the squares and bingo lines below it.
the_board() {
    local device="$1" version="$2" at="$3" name="$4" description="$5" deleted="${6:-false}"
    local deletedAt=null
    [ "$deleted" = true ] && deletedAt="\"$at\""
    put "$device" "$board" "{\"id\":\"week-47\",\"userId\":\"u1\",\"name\":\"$name\",\"description\":$description,\"status\":\"active\",\"boardSize\":3,\"timeframe\":\"weekly\",\"startDate\":\"2026-11-16T00:00:00Z\",\"endDate\":\"2026-11-22T23:59:59Z\",\"centerSquareType\":\"none\",\"isRandomized\":false,\"totalTasks\":0,\"completedTasks\":0,\"completionPercentage\":0,\"linesCompleted\":0,\"createdAt\":\"2026-11-16T08:00:00Z\",\"updatedAt\":\"$at\",\"version\":$version,\"isDeleted\":$deleted,\"deletedAt\":$deletedAt}"
}

# field_at DEVICE REV PATH KEY: a field of a document at a checkpoint of that device.
field_at() { quietly "$1" get "$3" --at "$2" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)[sys.argv[1]]))' "$4"; }

# stats DEVICE: the board's totalTasks, completedTasks, completionPercentage, linesCompleted.
stats() { quietly "$1" get "$board" | python3 -c 'import json,sys; b=json.load(sys.stdin)
print(b["totalTasks"], b["completedTasks"], b["completionPercentage"], b["linesCompleted"])'; }

server u1 oybc
on phone init u1 --schema oybc --remote "$(remote u1)"

echo
echo "# The phone creates a 3x3 board of nine tasks (seed: \"Create board, add 9 tasks\")."
titles=("Run 5 km" "Meditate" "Read 20 pages" "Call mum" "Stretch" "Cook dinner" "Journal" "No sugar" "Sleep by 11")
the_board phone 1 2026-11-16T08:00:00Z "Week 47" null
for i in 1 2 3 4 5 6 7 8 9; do
    task "t$i" "${titles[$((i - 1))]}"
    square phone "t$i" "$((i - 1))" 1 2026-11-16T08:00:00Z false
done
on phone checkpoint -m "Board week-47 created"
on phone sync
on tablet clone "$(remote u1)"
check "the new board counts its nine squares" equal "$(stats tablet)" "9 0 0.0 0"

echo
echo "# Both devices go offline and edit the same board."
echo "# The phone completes the top row and t5, records the bingo line, and renames the board"
echo "# once (version 2), late in the evening."
square phone t1 0 2 2026-11-17T07:10:00Z true
square phone t2 1 2 2026-11-17T07:20:00Z true
square phone t3 2 2 2026-11-17T07:30:00Z true
put phone "$board/bingoLines/row-0" '{"id":"row-0","boardId":"week-47","lineType":"row","lineIndex":0,"taskIds":["t1","t2","t3"],"completedAt":"2026-11-17T07:30:00Z","createdAt":"2026-11-17T07:30:00Z"}'
square phone t5 4 2 2026-11-17T07:40:00Z true
the_board phone 2 2026-11-17T21:00:00Z "Week 47 (phone)" null
on phone checkpoint -m "Top row done"
check "the phone's board counts its own squares" equal "$(stats phone)" "9 4 44.44444444444444 1"

echo "# The tablet, early in the morning, edits the board twice (versions 2 and 3), completes t1"
echo "# and t4, marks t5 and undoes it (versions 2 and 3), and soft-deletes the square of t9."
the_board tablet 2 2026-11-17T06:00:00Z "Week 47: fitness" null
the_board tablet 3 2026-11-17T06:05:00Z "Week 47: fitness" '"Move every day"'
square tablet t1 0 2 2026-11-17T06:30:00Z true
square tablet t4 3 2 2026-11-17T06:40:00Z true
square tablet t5 4 2 2026-11-17T06:44:00Z true
square tablet t5 4 3 2026-11-17T06:45:00Z false
square tablet t9 8 2 2026-11-17T06:50:00Z false true
on tablet checkpoint -m "Board renamed, t4 done, t9 removed"
check "the tablet's board counts its own squares" equal "$(stats tablet)" "8 2 25.0 0"

echo
echo "# Back online: the phone pushes first, the tablet merges, the phone fast-forwards."
on phone sync
on tablet sync
on phone sync
on phone get "$board"
on phone conflicts

check "both devices converged on the server's tree" converged u1 phone tablet
check "the board is the tablet's: version 3 beats version 2 though written earlier" \
    equal "$(field phone "$board" version)" 3
check "the tablet's name and description came with its version" \
    equal "$(field phone "$board" name) $(field phone "$board" description)" '"Week 47: fitness" "Move every day"'
check "the board's updatedAt is the tablet's" equal "$(field tablet "$board" updatedAt)" '"2026-11-17T06:05:00Z"'
check "t1, done on both at version 2: the later updatedAt (the phone's) wins" \
    equal "$(field tablet "$board/boardTasks/t1" updatedAt)" '"2026-11-17T07:10:00Z"'
check "t5: the tablet's undo (version 3) beats the phone's later completion (version 2)" \
    equal "$(field phone "$board/boardTasks/t5" version) $(field phone "$board/boardTasks/t5" isCompleted)" "3 false"
check "t4, completed on the tablet only, is kept" equal "$(field phone "$board/boardTasks/t4" isCompleted)" true
check "t9's soft delete came with its version" \
    equal "$(field phone "$board/boardTasks/t9" isDeleted) $(field phone "$board/boardTasks/t9" deletedAt)" 'true "2026-11-17T06:50:00Z"'
check "the stats are counted again from the merged squares: 8 squares, 4 done, 50 %, 1 line" \
    equal "$(stats phone)" "8 4 50.0 1"
check "the tablet has the same stats" equal "$(stats tablet)" "8 4 50.0 1"
check "every square kept as a document (the soft-deleted one too)" \
    equal "$(quietly tablet ls "$board/boardTasks" | tr '\n' ' ')" "t1 t2 t3 t4 t5 t6 t7 t8 t9 "
check "the bingo line is kept" equal "$(quietly tablet ls "$board/bingoLines")" row-0
conflicts="$(quietly tablet conflicts)"
check "cairn conflicts lists the board: the tablet's version 3 kept, the phone's rename replaced" \
    grep -q 'users/u1/boards/week-47 \[highest(version, then updatedAt)\] kept {.*"description": "Move every day".*, replaced {.*"description": null' <<<"$conflicts"
check "cairn conflicts lists square t1, decided by updatedAt" \
    grep -q 'boardTasks/t1 \[highest(version, then updatedAt)\] kept { "completedAt": "2026-11-17T07:10:00Z"' <<<"$conflicts"
check "cairn conflicts lists square t5, decided by version" \
    grep -q 'boardTasks/t5 \[highest(version, then updatedAt)\] kept {.*"version": 3 }, replaced {.*"version": 2 }' <<<"$conflicts"
on tablet get "$board" --at HEAD^2
check "the phone's replaced rename stays in the history (the other parent of the tablet's merge)" \
    equal "$(field_at tablet HEAD^2 "$board" name)" '"Week 47 (phone)"'

echo
echo "# Offline again: the phone soft-deletes the board (version 4) while the tablet completes t6."
the_board phone 4 2026-11-18T09:00:00Z "Week 47: fitness" '"Move every day"' true
square tablet t6 5 2 2026-11-18T08:30:00Z true
on phone sync
on tablet sync
on phone sync
on tablet get "$board"

check "both devices converged again" converged u1 phone tablet
check "the board is soft-deleted on both, with its deletedAt" \
    equal "$(field tablet "$board" isDeleted) $(field tablet "$board" deletedAt) $(field phone "$board" isDeleted)" 'true "2026-11-18T09:00:00Z" true'
check "nothing is removed: the deleted board keeps its squares, and t6 done meanwhile counts" \
    equal "$(stats phone) $(quietly phone ls "$board/boardTasks" | wc -l)" "8 5 62.5 1 9"
check "the tasks themselves are untouched" equal "$(quietly phone ls users/u1/tasks | wc -l)" 9
for d in phone tablet; do check "$d: every document valid" quietly "$d" validate; done

check "every history verifies: cairn verify on each device and on the server" verified
echo "(same tree on both devices and the server; higher version won; every square, line and task kept)"
