import CairnCore
import CairnMerge
import CairnSchemaSets
import CairnServer
import Foundation

/// An exam attempt as the app models it.
struct ExamAttempt: Codable, Equatable {
    var attemptId: String
    var examId: String
    var status: String
    var score: Int
    var completedAt: Date
}

@main
struct Quickstart {
    static func main() async throws {
        let folder = NSTemporaryDirectory() + "cairn-quickstart-\(ProcessInfo.processInfo.processIdentifier)"
        defer { try? FileManager.default.removeItem(atPath: folder) }

        // A home with one user whose documents follow the life-in-uk schema set, which Cairn
        // ships as a package resource (CairnSchemaSets); an app reads its own set's files.
        let home = Home(root: folder + "/phone")
        guard let schema = SchemaSets.named("life-in-uk") else {
            fatalError("the life-in-uk schema set is not among the package's resources")
        }
        try home.createStore("u1", schemaSet: schema)
        let store = try ProgressStore(home: home, user: "u1")

        // Observe the attempts, as a screen would.
        let changes = store.changes(under: "users/u1/examAttempts")

        // Write a typed document: attempts are checkpointed at once (the set says "immediate").
        let attempt = ExamAttempt(
            attemptId: "attempt-1", examId: "practice-1", status: "passed",
            score: 83, completedAt: Date(timeIntervalSince1970: 1_730_000_000))
        try store.put(attempt, at: "users/u1/examAttempts/\(attempt.attemptId)")
        for await paths in changes {
            print("changed:", paths.map(\.description))
            break
        }
        let saved = try store.get(ExamAttempt.self, at: "users/u1/examAttempts/attempt-1")
        precondition(saved == attempt)

        // Sync with a remote: here a bare repository in the same folder, made as a server
        // makes one (CairnServer; an app needs only CairnCore).
        _ = try Server.createRepositories(in: folder + "/server", uids: ["u1"], cairn: "cairn")
        try store.withStore { store throws(CairnError) in
            try store.setRemote(RemoteURL(folder + "/server/u1.git"))
        }
        let result = try await store.sync(SyncOptions(retry: .none))
        print(result.summary)
    }
}
