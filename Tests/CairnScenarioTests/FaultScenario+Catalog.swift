import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation

extension FaultScenario {
    /// The seed of the harness: `CAIRN_FAULT_SEED`, else 1. It picks the documents' values,
    /// and the sample of fault points where there are more than a run tries.
    static var seed: UInt64 {
        ProcessInfo.processInfo.environment["CAIRN_FAULT_SEED"].flatMap { UInt64($0) } ?? 1
    }

    /// Every scenario: the writes (`put` of a new document, `put` over one, `rm`), the
    /// checkpoints (one of a few documents, one that combines packs), and the syncs through a
    /// path remote (one that pushes, one that fast-forwards, one that merges and pushes).
    static func catalog(seed: UInt64) -> [FaultScenario] {
        var random = SplitMix(seed: seed)
        let score = Int(random.next() % 100)
        let updatedAt = 100 + Int(random.next() % 100)
        return [
            FaultScenario(
                "put (new document)", command: ["put", "users/u1/examAttempts/new"],
                input: attempt("new", score: score), followUp: [["checkpoint"]]
            ) { site, random in
                try makeStore(site, &random)
                try site.must("a", "put", "users/u1/examAttempts/pending", input: attempt("pending", score: 1))
            },
            FaultScenario(
                "put (new collection)", command: ["put", "users/u1/examInProgress/practice-2"],
                input: #"{"examId":"practice-2","clientUpdatedAt":\#(updatedAt),"currentQuestionIndex":\#(score)}"#,
                followUp: [["checkpoint"]]
            ) { site, random in
                try makeStore(site, &random)
            },
            FaultScenario(
                "put (over a document)", command: ["put", "users/u1/books/b1"],
                input: book("b1", sections: ["s1": updatedAt, "s2": updatedAt + 1]), followUp: [["checkpoint"]]
            ) { site, random in
                try makeStore(site, &random)
            },
            FaultScenario(
                "rm", command: ["rm", "users/u1/books/b2"], followUp: [["checkpoint"]],
                retryMayFindItDone: true
            ) { site, random in
                try makeStore(site, &random)
            },
            // A write below a document that counts it: the document, then its board's counts.
            // `validate` counts every task: a count the run again left behind fails it. (The
            // checkpoint alone would hide one: the harness's copy of the store changes the
            // index's stamp, so the checkpoint compares every file and counts in full.)
            FaultScenario(
                "put (below a count)", command: ["put", "users/u1/boards/b1/boardTasks/t3"],
                input: boardTask("t3", completed: score % 2 == 0), followUp: [["validate"], ["checkpoint"]]
            ) { site, random in
                try makeBoardStore(site, &random)
            },
            FaultScenario(
                "rm (below a count)", command: ["rm", "users/u1/boards/b1/boardTasks/t1"], followUp: [["validate"], ["checkpoint"]],
                retryMayFindItDone: true
            ) { site, random in
                try makeBoardStore(site, &random)
            },
            FaultScenario("checkpoint", command: ["checkpoint"]) { site, random in
                try makeStore(site, &random)
                for index in 0..<3 {
                    try site.must(
                        "a", "put", "users/u1/examAttempts/c\(index)", input: attempt("c\(index)", score: Int(random.next() % 100)))
                }
                try site.must("a", "put", "users/u1/books/b1", input: book("b1", sections: ["s1": 20, "s3": 21]))
                try site.must("a", "rm", "users/u1/books/b2")
            },
            FaultScenario(
                "checkpoint (combining packs)", command: ["checkpoint"],
                confirm: { site in
                    let count = try packCount(site)
                    return count < 24 ? nil : "the checkpoint left \(count) packs: it combined none"
                }
            ) { site, random in
                try makeStore(site, &random)
                // Each checkpoint adds a pack; the checkpoint under test adds the one past the limit.
                // The user's own document, at the top, makes the smallest packs (three objects).
                var round = 0
                while try packCount(site) < 24 {
                    try site.must("a", "put", "users/u1", input: #"{"schemaVersion":1,"lastSeenAt":"\#(round)"}"#)
                    try site.must("a", "checkpoint")
                    round += 1
                    guard round < 60 else { throw FaultSiteError(message: "the store never reached 24 packs") }
                }
                try site.must("a", "put", "users/u1/examAttempts/last", input: attempt("last", score: score))
            },
            FaultScenario("sync (push)", command: ["sync"], syncs: true) { site, random in
                try makeStore(site, &random, remote: true)
                try site.must("a", "put", "users/u1/examAttempts/u1", input: attempt("u1", score: score))
                try site.must("a", "checkpoint")
                try site.must("a", "put", "users/u1/books/b1", input: book("b1", sections: ["s1": 30, "s4": updatedAt]))
            },
            FaultScenario("sync (fast-forward)", command: ["sync"], syncs: true) { site, random in
                try makeStore(site, &random, remote: true)
                try site.must("b", "put", "users/u1/examAttempts/from-b", input: attempt("from-b", score: score))
                try site.must("b", "put", "users/u1/books/b1", input: book("b1", sections: ["s1": 40, "s5": updatedAt]))
                try site.must("b", "rm", "users/u1/books/b2")
                try site.must("b", "sync")
            },
            FaultScenario(
                "sync (merge)", command: ["sync"], syncs: true,
                confirm: { site in
                    try site.resolve("a", "HEAD^2") != nil ? nil : "the sync made no merge commit"
                }
            ) { site, random in
                try makeStore(site, &random, remote: true)
                try site.must("b", "put", "users/u1/examAttempts/from-b", input: attempt("from-b", score: score))
                try site.must("b", "put", "users/u1/books/b1", input: book("b1", sections: ["s1": 50, "s6": updatedAt]))
                try site.must("b", "sync")
                try site.must("a", "put", "users/u1/examAttempts/from-a", input: attempt("from-a", score: 100 - score))
                try site.must("a", "checkpoint")
                try site.must("a", "put", "users/u1/books/b1", input: book("b1", sections: ["s1": 60, "s7": updatedAt + 2]))
            },
        ]
    }

    /// Device `a` with a few checkpointed documents (two attempts, books `b1` and `b2`);
    /// with `remote`, a server repository it pushed them to and device `b` cloned from it.
    static func makeStore(_ site: FaultSite, _ random: inout SplitMix, remote: Bool = false) throws {
        var initialize = ["--home", site.home("a"), "init", "u1", "--schema", "life-in-uk"]
        if remote {
            let server = try FaultSite.run(CLI.executable, ["server", "init", site.path + "/server", "u1"])
            guard server.status == 0 else { throw FaultSiteError(message: "server init: \(server.stderr)") }
            initialize += ["--remote", site.remote]
        }
        let made = try FaultSite.run(CLI.executable, initialize)
        guard made.status == 0 else { throw FaultSiteError(message: "init: \(made.stderr)") }
        for id in ["a1", "a2"] {
            try site.must("a", "put", "users/u1/examAttempts/\(id)", input: attempt(id, score: Int(random.next() % 100)))
        }
        try site.must("a", "put", "users/u1/books/b1", input: book("b1", sections: ["s1": 10]))
        try site.must("a", "put", "users/u1/books/b2", input: book("b2", sections: ["s1": 11]))
        try site.must("a", "checkpoint")
        if remote {
            try site.must("a", "sync")
            let clone = try FaultSite.run(
                CLI.executable, ["--home", site.home("b"), "clone", site.remote], environment: FaultSite.environment)
            guard clone.status == 0 else { throw FaultSiteError(message: "clone: \(clone.stderr)") }
        }
    }

    /// Device `a` with the board app's set: a board counting its two tasks (one completed,
    /// one chosen by the seed), checkpointed.
    static func makeBoardStore(_ site: FaultSite, _ random: inout SplitMix) throws {
        let made = try FaultSite.run(CLI.executable, ["--home", site.home("a"), "init", "u1", "--schema", "oybc"])
        guard made.status == 0 else { throw FaultSiteError(message: "init: \(made.stderr)") }
        try site.must(
            "a", "put", "users/u1/boards/b1",
            input:
                #"{"id":"b1","userId":"u1","name":"Habits","status":"active","boardSize":3,"timeframe":"monthly","startDate":"2026-11-01T00:00:00Z","endDate":"2026-11-30T00:00:00Z","centerSquareType":"free","isRandomized":false,"totalTasks":0,"completedTasks":0,"completionPercentage":0,"linesCompleted":0,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z","version":1,"isDeleted":false}"#
        )
        try site.must("a", "put", "users/u1/boards/b1/boardTasks/t1", input: boardTask("t1", completed: true))
        try site.must("a", "put", "users/u1/boards/b1/boardTasks/t2", input: boardTask("t2", completed: random.next() % 2 == 0))
        try site.must("a", "checkpoint")
    }

    static func boardTask(_ id: String, completed: Bool) -> String {
        #"{"id":"\#(id)","boardId":"b1","taskId":"\#(id)","position":0,"isCompleted":\#(completed),"isDeleted":false,"version":1,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z"}"#
    }

    /// The packs of device `a`'s store.
    static func packCount(_ site: FaultSite) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: site.store("a") + "/.git/objects/pack")
        return names.filter { $0.hasSuffix(".pack") }.count
    }

    static func attempt(_ id: String, score: Int) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"\#(score >= 75 ? "passed" : "failed")","score":\#(score)}"#
    }

    /// A book whose sections (name: time of the change) are completed.
    static func book(_ id: String, sections: [String: Int]) -> String {
        let listed = sections.sorted { $0.key < $1.key }.map { #""\#($0.key)":{"completed":true,"updatedAt":\#($0.value)}"# }
        return
            #"{"schemaVersion":1,"bookId":"\#(id)","sections":{\#(listed.joined(separator: ","))},"updatedAt":\#(sections.values.max() ?? 0)}"#
    }
}
