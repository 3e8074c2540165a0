import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A store stays an ordinary git repository for the other git implementations its users' tools
/// are built on — pygit2 on a current libgit2 and on Debian's 1.5, dulwich from PyPI and from
/// Debian, Debian's JGit. After Cairn's checkpoints and syncs, and after git rewrote the index
/// (split, whole, version 4, a stash popped back) and Cairn checkpointed again, each of them
/// reads every entry of the index and finds the status clean; it commits a document on the
/// branch, and Cairn checkpoints over that commit and syncs it to the remote and to a second
/// device. A client that cannot be installed fails its cases: none is ever skipped.
@Suite(.historiesVerified) struct OtherGitImplementationsTests {
    static func attempt(_ id: String, score: Int = 80) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"passed","score":\#(score)}"#
    }

    static func examProgress(attempts: Int) -> String {
        #"{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":\#(attempts),"bestScore":80}}}"#
    }

    /// Every path of the store's index as git lists it.
    static func indexPaths(_ devices: Devices, _ device: String) throws -> [String] {
        try devices.git(device, "ls-files").split(separator: "\n").map(String.init)
    }

    /// What must hold of a device's store whoever wrote it last: `git fsck --strict` passes,
    /// `git status` is clean, and no path is twice in the index.
    static func expectSound(
        _ devices: Devices, _ device: String, _ moment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let fsck = try git("fsck", "--strict", in: devices.store(device))
        #expect(fsck.status == 0, "\(moment), \(device): git fsck --strict: \(fsck.stdout)\(fsck.stderr)", sourceLocation: sourceLocation)
        let status = try devices.git(device, "status", "--short")
        #expect(status.isEmpty, "\(moment), \(device): git status --short:\n\(status)", sourceLocation: sourceLocation)
        let paths = try indexPaths(devices, device)
        #expect(
            Set(paths).count == paths.count,
            "\(moment), \(device): paths twice in the index: \(Dictionary(grouping: paths) { $0 }.filter { $1.count > 1 }.keys.sorted())",
            sourceLocation: sourceLocation)
    }

    /// The client read the whole index of the device's store, as git lists it, and found the
    /// status clean.
    static func expectRead(
        _ report: GitClient.Report, by client: GitClient, _ devices: Devices, _ device: String, _ moment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let said = "\(report.result.stdout)\(report.result.stderr)"
        #expect(report.result.status == 0, "\(moment), \(client): \(said)", sourceLocation: sourceLocation)
        #expect(report.library.contains(client.library), "\(moment), \(client) runs \(report.library)", sourceLocation: sourceLocation)
        let paths = try indexPaths(devices, device)
        #expect(
            report.entries == paths, "\(moment), \(client) read the index as \(report.entries), git lists \(paths)",
            sourceLocation: sourceLocation)
        #expect(report.clean, "\(moment), \(client) found the status not clean: \(said)", sourceLocation: sourceLocation)
    }

    @Test(.runningTime(atMost: .seconds(180)), arguments: IndexRewrite.allCases, GitClient.allCases)
    func anotherImplementationReadsTheStoreAndItsCommitSyncs(rewrite: IndexRewrite, client: GitClient) throws {
        if let unavailable = client.unavailable {
            Issue.record(
                "\(unavailable)\nbash scripts/install-deps.sh --tests installs the Debian packages; the PyPI ones need pip to reach PyPI")
            return
        }
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", "users/u1/examAttempts/a1", Self.attempt("a1"))
        try devices.put("phone", "users/u1/progress/exam", Self.examProgress(attempts: 1))
        try devices.put(
            "phone", "users/u1/books/b1",
            #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}},"updatedAt":10}"#)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.sync("phone")
        try devices.clone("tablet")
        try devices.put("tablet", "users/u1/examAttempts/a2", Self.attempt("a2"))
        try devices.sync("tablet")

        // A document written and not yet checkpointed when git rewrites the index; then Cairn
        // checkpoints it and syncs, merging what the tablet pushed.
        try devices.put("phone", "users/u1/examAttempts/a3", Self.attempt("a3"))
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.put("phone", "users/u1/progress/exam", Self.examProgress(attempts: 2))
        try rewrite.apply(to: devices.store("phone"))
        let checkpoint = try devices.on("phone", "checkpoint")
        #expect(checkpoint.status == 0, "checkpoint after \(rewrite): \(checkpoint.stderr)")
        #expect(
            try devices.git("phone", "show", "HEAD:users/u1/progress/exam.json").contains("\"attemptCount\": 2"),
            "the checkpoint after \(rewrite) committed the document as it was written last")
        try devices.sync("phone")
        try Self.expectSound(devices, "phone", "after \(rewrite) and Cairn's checkpoint and sync")

        let read = try client.read(devices.store("phone"))
        try Self.expectRead(read, by: client, devices, "phone", "after \(rewrite) and Cairn's checkpoint and sync")

        // The client commits a document of the user on the branch.
        let before = try Self.indexPaths(devices, "phone")
        let head = try devices.git("phone", "rev-parse", "HEAD")
        let document = "users/u1/examAttempts/by-\(client.rawValue)"
        let committed = try client.commit(
            devices.store("phone"), document: document,
            fields: [
                ("attemptId", "by-\(client.rawValue)"), ("examId", "practice-1"),
                ("status", "passed"), ("score", "90"),
            ])
        #expect(committed.result.status == 0, "\(client) commit: \(committed.result.stdout)\(committed.result.stderr)")
        let commit = try #require(committed.commit, "\(client) made no commit: \(committed.result.stdout)\(committed.result.stderr)")
        #expect(try devices.git("phone", "rev-parse", "HEAD") == commit, "\(client) committed on the branch")
        #expect(try devices.git("phone", "rev-parse", "HEAD^") == head)
        #expect(
            try devices.git("phone", "ls-tree", "-r", "--name-only", "HEAD").split(separator: "\n").map(String.init)
                == (before + [document + ".json"]).sorted(),
            "\(client)'s commit holds every document of the store and the new one")
        #expect(
            try devices.git("phone", "show", "HEAD:\(document).json")
                == (try devices.on("phone", "get", document).stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
            "\(client) wrote the document in canonical JSON")
        try Self.expectSound(devices, "phone", "after \(client)'s commit")

        // Cairn writes over the client's index, then syncs the client's commit.
        try devices.put("phone", "users/u1/examAttempts/a4", Self.attempt("a4"))
        let after = try devices.on("phone", "checkpoint")
        #expect(after.status == 0, "checkpoint after \(client)'s commit: \(after.stderr)")
        #expect(try devices.git("phone", "rev-parse", "HEAD^") == commit, "Cairn's checkpoint follows \(client)'s commit")
        try devices.sync("phone")
        #expect(try devices.remoteGit("merge-base", "--is-ancestor", commit, "main").status == 0, "\(client)'s commit is on the remote")
        #expect(
            try devices.remoteDocument(document)
                == JSONValue.object([
                    "attemptId": .string("by-\(client.rawValue)"), "examId": .string("practice-1"), "status": .string("passed"),
                    "score": .integer(90),
                ]))
        try devices.sync("tablet")
        #expect(try devices.ids("tablet", "users/u1/examAttempts") == ["a1", "a2", "a3", "a4", "by-\(client.rawValue)"])
        #expect(try devices.get("tablet", "users/u1/progress/exam") == (try JSONParser().parse(Self.examProgress(attempts: 2))))
        try devices.expectConverged(["phone", "tablet"])
        for device in ["phone", "tablet"] {
            try Self.expectSound(devices, device, "after the sync of \(client)'s commit")
        }

        // And the client reads the index Cairn wrote last, on both devices.
        for device in ["phone", "tablet"] {
            try Self.expectRead(client.read(devices.store(device)), by: client, devices, device, "after the sync of \(client)'s commit")
        }
    }
}
