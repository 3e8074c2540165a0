import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Fields that count other documents (a board's stats, a user's profile and habit counts)
/// follow every write and delete below them.
@Suite(.historiesVerified) struct DerivedCountsTests {
    let cli = CLI()

    func boardTask(_ id: String, completed: Bool) -> String {
        #"{"id":"\#(id)","boardId":"b1","taskId":"\#(id)","position":0,"isCompleted":\#(completed),"isDeleted":false,"version":1,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z"}"#
    }

    @Test func aBoardsStatsFollowItsTasksAndLines() throws {
        try cli("init", "u1", "--schema", "oybc")
        let board =
            #"{"id":"b1","userId":"u1","name":"Habits","status":"active","boardSize":3,"timeframe":"monthly","startDate":"2026-11-01","endDate":"2026-11-30","centerSquareType":"free","isRandomized":false,"totalTasks":0,"completedTasks":0,"completionPercentage":0,"linesCompleted":0,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z","version":1,"isDeleted":false}"#
        let put = try cli("put", "users/u1/boards/b1", input: board)
        #expect(put.status == 0, "\(put.stderr)")
        for (id, done) in [("t1", true), ("t2", false), ("t3", true), ("t4", false)] {
            let result = try cli("put", "users/u1/boards/b1/boardTasks/\(id)", input: boardTask(id, completed: done))
            #expect(result.status == 0, "\(result.stderr)")
        }
        var stored = try cli("get", "users/u1/boards/b1").stdout
        #expect(
            stored.contains("\"totalTasks\": 4") && stored.contains("\"completedTasks\": 2")
                && stored.contains("\"completionPercentage\": 50.0"), "\(stored)")
        #expect(try cli("rm", "users/u1/boards/b1/boardTasks/t2").status == 0)
        stored = try cli("get", "users/u1/boards/b1").stdout
        #expect(stored.contains("\"totalTasks\": 3") && stored.contains("\"completedTasks\": 2"), "\(stored)")
        #expect(try cli("checkpoint").status == 0)
        #expect(try cli("validate").status == 0)
    }

    @Test func aUsersCountsFollowACascadeDelete() throws {
        try cli("init", "u1", "--schema", "remi")
        let user =
            #"{"id":"u1","email":"a@example.com","fullName":"A","phoneNumber":"","createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z","profileCount":0,"taskCount":0}"#
        let put = try cli("put", "users/u1", input: user)
        #expect(put.status == 0, "\(put.stderr)")
        let profile =
            #"{"id":"+447700900123","userId":"u1","phoneNumber":"+447700900123","displayName":"Mum","status":"confirmed","createdAt":"2026-11-01T08:00:00Z"}"#
        let created = try cli("put", "users/u1/profiles/+447700900123", input: profile)
        #expect(created.status == 0, "\(created.stderr)")
        var stored = try cli("get", "users/u1").stdout
        #expect(stored.contains("\"profileCount\": 1"), "\(stored)")
        let validation = try cli("validate")
        #expect(validation.status == 0, "\(validation.stdout)")
        #expect(try cli("rm", "-r", "users/u1/profiles/+447700900123").status == 0)
        stored = try cli("get", "users/u1").stdout
        #expect(stored.contains("\"profileCount\": 0"), "\(stored)")
    }
    /// A user's `taskCount` counts `profiles/*/habits`: the habits of every profile folder,
    /// a profile whose document is missing too (Firestore keeps subcollections of a missing
    /// document), and nothing of the profiles' other collections (their messages). A habit
    /// written by hand that does not parse is not a document and does not count, as no
    /// checkpoint can commit it; `validate` names it.
    @Test func aUsersHabitCountFindsTheHabitsOfEveryProfileAndNothingElse() throws {
        try cli("init", "u1", "--schema", "remi")
        let user =
            #"{"id":"u1","email":"a@example.com","fullName":"A","phoneNumber":"","createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z","profileCount":0,"taskCount":0}"#
        #expect(try cli("put", "users/u1", input: user).status == 0)
        for phone in ["+447700900123", "+447700900456"] {
            let profile =
                #"{"id":"\#(phone)","userId":"u1","phoneNumber":"\#(phone)","displayName":"P","status":"confirmed","createdAt":"2026-11-01T08:00:00Z"}"#
            let created = try cli("put", "users/u1/profiles/\(phone)", input: profile)
            #expect(created.status == 0, "\(created.stderr)")
        }
        let habits = [("+447700900123", "h1"), ("+447700900123", "h2"), ("+447700900456", "h3"), ("+447700900789", "h4")]
        for (phone, id) in habits {
            let habit = try cli("put", "users/u1/profiles/\(phone)/habits/\(id)", input: Self.habit(id, phone: phone))
            #expect(habit.status == 0, "\(habit.stderr)")
        }
        let message =
            #"{"id":"m1","userId":"u1","profileId":"+447700900123","receivedAt":"2026-11-01T09:00:00Z","responseType":"text","textResponse":"Done"}"#
        let sent = try cli("put", "users/u1/profiles/+447700900123/messages/m1", input: message)
        #expect(sent.status == 0, "\(sent.stderr)")
        var stored = try cli("get", "users/u1").stdout
        #expect(stored.contains("\"profileCount\": 2") && stored.contains("\"taskCount\": 4"), "\(stored)")

        let broken = cli.home + "/u1/users/u1/profiles/+447700900456/habits/h5.json"
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: broken))
        let another = try cli("put", "users/u1/profiles/+447700900456/habits/h6", input: Self.habit("h6", phone: "+447700900456"))
        #expect(another.status == 0, "\(another.stderr)")
        stored = try cli("get", "users/u1").stdout
        #expect(stored.contains("\"taskCount\": 5"), "\(stored)")
        let validation = try cli("validate")
        #expect(validation.status != 0 && validation.stdout.contains("h5"), "\(validation.stdout)")
    }

    static func habit(_ id: String, phone: String) -> String {
        #"{"id":"\#(id)","userId":"u1","profileId":"\#(phone)","title":"Walk","frequency":"daily","scheduledTime":"08:00","nextScheduledDate":"2026-11-02","createdAt":"2026-11-01T08:00:00Z"}"#
    }
}
