import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// "Did anyone change this exam attempt? Is this merge what the policies decide?": the server
/// merges every merge it receives again and refuses one whose tree differs (here through
/// plain git, which runs hooks on a path remote; `AttestedMergesOverHTTPTests` pushes with
/// Cairn); `cairn verify` audits a whole history, a store's or a server's, one line per
/// finding.
@Suite(.historiesVerified) struct HistoryAuditTests {
    static let book = "users/u1/books/b1"
    static let attempt = "users/u1/examAttempts/a1"

    static func book(_ sections: String) -> String {
        #"{"schemaVersion":1,"bookId":"b1","sections":{\#(sections)}}"#
    }

    /// Two devices whose books went apart offline; the tablet has fetched the phone's work.
    static func twoDevicesApart() throws -> Devices {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", book, book(#""s1":{"completed":true,"updatedAt":1730000000000}"#))
        try devices.sync("phone")
        try devices.clone("tablet")
        try devices.put(
            "phone", book, book(#""s1":{"completed":true,"updatedAt":1730000000000},"s2":{"completed":true,"updatedAt":1730100000000}"#))
        try devices.sync("phone")
        try devices.put("tablet", book, book(#""s1":{"completed":false,"updatedAt":1730200000000}"#))
        try devices.on("tablet", "checkpoint")
        _ = try devices.git("tablet", "fetch", "-q", "origin")
        return devices
    }

    @Test func aHandMadeWrongMergeIsRefusedByTheServerAndFoundByVerify() throws {
        let devices = try Self.twoDevicesApart()
        // A merge that drops the phone's s2: git's "ours" strategy keeps the tablet's tree.
        _ = try devices.git("tablet", "merge", "-q", "-s", "ours", "--no-edit", "origin/main")
        let wrong = try devices.git("tablet", "rev-parse", "HEAD")
        let (ours, theirs) = (try devices.git("tablet", "rev-parse", "HEAD^1"), try devices.git("tablet", "rev-parse", "HEAD^2"))
        let before = try devices.remoteGit("rev-parse", "main").stdout
        let said =
            "commit \(wrong.prefix(7)): the merge of \(ours.prefix(7)) and \(theirs.prefix(7)) is not what the policies give: users/u1/books/b1 differs"

        let pushed = try runProcess("/usr/bin/git", ["-C", devices.store("tablet"), "push", "origin", "main"])
        #expect(pushed.status != 0)
        #expect(pushed.stderr.contains(said), "\(pushed.stderr)")
        // Cairn checks the merges another tool made before it pushes, also to a path remote,
        // where libgit2 runs no hook.
        let synced = try devices.sync("tablet", expecting: 1)
        #expect(synced.stderr.split(separator: "\n").count == 1, "\(synced.stderr)")
        #expect(synced.stderr.contains("breaks the server's rules, and was not sent: " + said), "\(synced.stderr)")
        #expect(
            synced.stderr.contains("git reset --keep") && !synced.stderr.contains("cairn restore"),
            "the way out undoes the merge: \(synced.stderr)")
        #expect(try devices.remoteGit("rev-parse", "main").stdout == before, "nothing reached the server")

        // The store's own history holds it: verify says so, one line, and fails.
        let verified = try devices.on("tablet", "verify")
        #expect(verified.status == 1)
        #expect(verified.stdout == said + "\n", "\(verified.stdout)")
        #expect(verified.stderr.contains("1 finding in "), "\(verified.stderr)")

        // Undone, Cairn merges, recording the clock it merged by, and verify finds nothing.
        _ = try devices.git("tablet", "reset", "-q", "--hard", "HEAD~1")
        try devices.sync("tablet")
        let merge = try devices.git("tablet", "log", "-1", "--format=%B")
        #expect(merge.contains("Cairn-Merge-Clock: "), "\(merge)")
        #expect(try devices.remoteGit("rev-parse", "main").stdout != before)
        #expect(try devices.on("tablet", "verify").status == 0)
    }

    /// The files under `objects/` of a repository, by path.
    static func objectFiles(_ gitdir: String) -> [String] {
        (FileManager.default.enumerator(atPath: gitdir + "/objects")?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix("info") }.sorted()
    }

    /// An audit writes nothing: what merging a merge again makes stays in memory, so the
    /// store's and the server's object folders are as they were, and git finds them sound.
    @Test func verifyLeavesTheRepositoriesAsTheyWere() throws {
        let devices = try Self.twoDevicesApart()
        try devices.sync("tablet")
        #expect(try devices.git("tablet", "log", "-1", "--format=%P").split(separator: " ").count == 2, "a merge to audit")
        let store = devices.store("tablet") + "/.git"
        let (storeBefore, serverBefore) = (Self.objectFiles(store), Self.objectFiles(devices.remote()))
        #expect(try devices.on("tablet", "verify").status == 0)
        #expect(try devices.on("tablet", "verify", "--git-dir", devices.remote(), user: nil).status == 0)
        #expect(Self.objectFiles(store) == storeBefore)
        #expect(Self.objectFiles(devices.remote()) == serverBefore)
        for gitdir in [store, devices.remote()] {
            let fsck = try runProcess("/usr/bin/git", ["--git-dir", gitdir, "fsck", "--full", "--strict"])
            #expect(fsck.status == 0 && !fsck.stdout.contains("broken"), "\(fsck.stdout)\(fsck.stderr)")
        }
    }

    @Test func verifyFindsAnAttemptChangedDeepInAHistoryOfAStoreAndOfAServer() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.attempt, #"{"attemptId":"a1","examId":"practice-1","status":"failed","score":55}"#)
        try devices.on("phone", "checkpoint")
        for step in 1...12 {
            try devices.put("phone", Self.book, Self.book(#""s1":{"completed":\#(step % 2 == 0),"updatedAt":\#(1730000000000 + step)}"#))
            try devices.on("phone", "checkpoint")
            let file = devices.store("phone") + "/" + Self.attempt + ".json"
            if step == 4 {
                // Someone raises the failed attempt's score with plain git…
                try #"{"attemptId":"a1","examId":"practice-1","score":75,"status":"passed"}"#.write(
                    toFile: file, atomically: true, encoding: .utf8)
                _ = try devices.git("phone", "commit", "-q", "-am", "fix score")
            }
            if step == 7 {
                // …and later removes it.
                _ = try devices.git("phone", "rm", "-q", Self.attempt + ".json")
                _ = try devices.git("phone", "commit", "-q", "-m", "drop attempt")
            }
        }
        HistoriesVerified.exempt(devices.folder.path, because: "the history is made unsound on purpose, for verify to find")
        let changed = try devices.git("phone", "log", "-1", "--format=%H", "--grep", "fix score")
        let dropped = try devices.git("phone", "log", "-1", "--format=%H", "--grep", "drop attempt")
        let said =
            "commit \(changed.prefix(7)): users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never changed"
        let saidLater =
            "commit \(dropped.prefix(7)): users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never deleted"
        let verified = try devices.on("phone", "verify")
        #expect(verified.status == 1)
        #expect(verified.stdout == said + "\n" + saidLater + "\n", "oldest first: \(verified.stdout)")
        let total = try devices.git("phone", "rev-list", "--count", "HEAD")
        #expect(verified.stderr == "cairn: 2 findings in \(total) commits (above)\n", "\(verified.stderr)")
        let json = try JSONParser().parse(try devices.on("phone", "verify", "--json").stdout)
        #expect(ScriptOutputTests.at(json, "valid") == .bool(false))
        #expect(ScriptOutputTests.text(json, "findings", 0, "commit") == changed)
        // After it, the history is sound; a range that does not exist is one line.
        let after = try devices.git("phone", "rev-list", "--count", dropped + "..HEAD")
        #expect(try devices.on("phone", "verify", dropped + "..HEAD").stdout.hasPrefix("Verified \(after) commits"))
        #expect(try devices.on("phone", "verify", changed + "..HEAD").stdout == saidLater + "\n")
        let unknown = try devices.on("phone", "verify", "nosuch..HEAD")
        #expect(
            unknown.status == 1 && unknown.stdout.isEmpty
                && unknown.stderr == "cairn: unknown revision \"nosuch\": revspec 'nosuch' not found\n")

        // A server whose hook was taken away accepted it: verify of its repository finds it.
        try FileManager.default.removeItem(atPath: devices.remote() + "/hooks/pre-receive")
        _ = try devices.git("phone", "push", "-q", "origin", "main")
        let packs = try FileManager.default.contentsOfDirectory(atPath: devices.remote() + "/objects/pack").sorted()
        let served = try devices.on("phone", "verify", "--git-dir", devices.remote(), user: nil)
        #expect(served.status == 1)
        #expect(served.stdout == said + "\n" + saidLater + "\n", "\(served.stdout)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: devices.remote() + "/objects/pack").sorted() == packs,
            "verify wrote no pack beside those git serves")
        let loose = try runProcess(
            "/usr/bin/find", [devices.remote() + "/objects", "-newer", devices.remote() + "/refs/heads/main", "-type", "f"])
        #expect(loose.stdout.isEmpty, "nor any loose object: \(loose.stdout)")
    }

    /// One commit breaks two rules (an attempt whose score is over the maximum, and a stray
    /// file); a later commit takes the stray file away. Verify names both findings of the
    /// first commit, one line each, and the attempt still breaking its schema is not hidden
    /// behind the file.
    @Test func verifyNamesEveryFindingOfACommitNotOnlyTheFirst() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        let store = devices.store("phone")
        try FileManager.default.createDirectory(atPath: store + "/users/u1/examAttempts", withIntermediateDirectories: true)
        try #"{"attemptId":"a1","examId":"practice-1","score":150,"status":"passed"}"#
            .write(toFile: store + "/" + Self.attempt + ".json", atomically: true, encoding: .utf8)
        try "scribbles\n".write(toFile: store + "/notes.txt", atomically: true, encoding: .utf8)
        _ = try devices.git("phone", "add", "-A")
        _ = try devices.git("phone", "commit", "-q", "-m", "two wrongs")
        HistoriesVerified.exempt(devices.folder.path, because: "the history is made unsound on purpose, for verify to find")
        let both = try devices.git("phone", "rev-parse", "HEAD")
        _ = try devices.git("phone", "rm", "-q", "notes.txt")
        _ = try devices.git("phone", "commit", "-q", "-m", "one undone")
        let verified = try devices.on("phone", "verify")
        #expect(verified.status == 1)
        let lines = verified.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(verified.stdout)")
        #expect(lines.allSatisfy { $0.hasPrefix("commit \(both.prefix(7)): ") }, "\(verified.stdout)")
        #expect(lines.contains { $0.contains("notes.txt") }, "\(verified.stdout)")
        #expect(
            lines.contains { $0.contains("users/u1/examAttempts/a1 breaks its schema (exam-attempt.schema.json) at /score") },
            "\(verified.stdout)")
        #expect(verified.stderr.contains("2 findings in "), "\(verified.stderr)")

        // Findings spread over commits: each commit's own, oldest first.
        try #"{"attemptId":"a2","examId":"practice-1","score":101,"status":"passed"}"#
            .write(toFile: store + "/users/u1/examAttempts/a2.json", atomically: true, encoding: .utf8)
        _ = try devices.git("phone", "add", "-A")
        _ = try devices.git("phone", "commit", "-q", "-m", "a third wrong")
        let third = try devices.git("phone", "rev-parse", "HEAD")
        let again = try devices.on("phone", "verify").stdout.split(separator: "\n").map(String.init)
        #expect(again.count == 3, "\(again)")
        #expect(again.last?.hasPrefix("commit \(third.prefix(7)): users/u1/examAttempts/a2 breaks its schema") == true, "\(again)")
        // A server without its hook took it all: its audit says the same.
        try FileManager.default.removeItem(atPath: devices.remote() + "/hooks/pre-receive")
        _ = try devices.git("phone", "push", "-q", "origin", "main")
        let served = try devices.on("phone", "verify", "--git-dir", devices.remote(), user: nil)
        #expect(served.stdout.split(separator: "\n").map(String.init) == again, "\(served.stdout)")
    }

    /// A restore takes an attempt changed by hand back to the remote's version: the restore's
    /// commit, which names its source, is no finding (the hand commit is). A commit that
    /// names a source but takes the attempt elsewhere is a finding all the same.
    @Test func aRestoreIsTheChangeItsSourceNamesAndNoOther() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.attempt, #"{"attemptId":"a1","examId":"practice-1","status":"failed","score":55}"#)
        try devices.sync("phone")
        let file = devices.store("phone") + "/" + Self.attempt + ".json"
        try #"{"attemptId":"a1","examId":"practice-1","score":75,"status":"passed"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        _ = try devices.git("phone", "commit", "-q", "-am", "fix score")
        let hand = try devices.git("phone", "rev-parse", "HEAD")
        HistoriesVerified.exempt(commit: hand, because: "a hand commit that changes an attempt, for verify to find")
        #expect(try devices.on("phone", "restore", Self.attempt).status == 0)
        let restore = try devices.git("phone", "log", "-1", "--format=%B")
        #expect(restore.contains("Cairn-Restore-Source: " + (try devices.git("phone", "rev-parse", "origin/main"))), "\(restore)")
        let verified = try devices.on("phone", "verify")
        #expect(
            verified.stdout.split(separator: "\n").map { $0.prefix(14) } == ["commit \(hand.prefix(7))"],
            "only the hand commit: \(verified.stdout)")

        // The same trailer over another change of the attempt.
        try #"{"attemptId":"a1","examId":"practice-1","score":99,"status":"passed"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let source = try devices.git("phone", "rev-parse", "origin/main")
        _ = try devices.git("phone", "commit", "-q", "-am", "Restore 1 document\n\nCairn-Restore-Source: " + source)
        let forged = try devices.git("phone", "rev-parse", "HEAD")
        HistoriesVerified.exempt(commit: forged, because: "a forged restore, for verify to find")
        let again = try devices.on("phone", "verify")
        #expect(again.stdout.contains("commit \(forged.prefix(7)): users/u1/examAttempts/a1 is append-only"), "\(again.stdout)")
    }

    /// With `"future": "clamp"`, a stamp from the future counts as the merging device's clock
    /// and the kept value carries that clock: merged again with the clock the merge commit
    /// records (as verify and a server's hook do), it gives the same tree.
    @Test func aMergeThatClampedAStampFromTheFutureIsMergedAgainTheSame() throws {
        let (devices, set) = try Self.aStampFromTheFutureMerged()
        defer { withExtendedLifetime(set) {} }
        let message = try devices.git("tablet", "log", "-1", "--format=%B")
        let clock = message.split(separator: "\n").first { $0.hasPrefix("Cairn-Merge-Clock: ") }.map { $0.dropFirst(19) }
        #expect(clock != nil, "\(message)")
        let note = try devices.get("tablet", "users/u1/notes/n1")
        #expect(
            note.map { ScriptOutputTests.at($0, "updatedAt") } == clock.flatMap { Int64($0) }.map { .integer($0) },
            "\(String(describing: note))")
        #expect(ScriptOutputTests.text(note, "text") == "from the future")
        #expect(
            try devices.remoteGit("rev-parse", "main").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == (try devices.git("tablet", "rev-parse", "HEAD")))
        #expect(try devices.on("tablet", "verify").status == 0)
    }

    /// A note whose set keeps the last writer's text and clamps a stamp from the future: the
    /// phone wrote one a day ahead, the tablet one an hour ago, and the tablet merged (its
    /// merge the tablet's HEAD). The set's folder lives as long as the value returned.
    static func aStampFromTheFutureMerged() throws -> (Devices, TemporaryFolder) {
        let set = TemporaryFolder("cairn-clamp")
        try #"""
        {"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object",
         "x-merge": {"lww": "updatedAt", "future": "clamp"},
         "properties": {"text": {"type": "string"}, "updatedAt": {"type": "integer"}}}
        """#.write(toFile: set.path + "/note.schema.json", atomically: true, encoding: .utf8)
        let devices = try Devices(schema: set.path)
        try devices.start("phone")
        try devices.clone("tablet")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try devices.put("phone", "users/u1/notes/n1", #"{"text":"from the future","updatedAt":\#(now + 86_400_000)}"#)
        try devices.sync("phone")
        try devices.put("tablet", "users/u1/notes/n1", #"{"text":"an hour ago","updatedAt":\#(now - 3_600_000)}"#)
        try devices.sync("tablet")
        return (devices, set)
    }
}
