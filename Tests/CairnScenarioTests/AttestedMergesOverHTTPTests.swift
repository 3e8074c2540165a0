import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A client with a broken merge cannot push it: over HTTP, to the repositories of `cairn
/// server init`, the hook merges every merge it receives again under the policies and refuses
/// one whose tree differs, naming the first document; Cairn's own merges pass.
@Suite(.serialized, .historiesVerified) struct AttestedMergesOverHTTPTests {
    static let book = "users/u1/books/b1"

    @Test(.runningTime(atMost: .seconds(300)))
    func aWrongMergeIsRefusedWhenCairnPushesItAndCairnsOwnMergePasses() throws {
        let served = try HTTPSyncTests.Served()
        defer { served.server.stop() }
        let password = HTTPSyncTests.passwords["u1"]!
        let phone = HTTPSyncTests.Device("phone"), tablet = HTTPSyncTests.Device("tablet")
        #expect(try phone("init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1", user: "u1"), password: password).status == 0)
        #expect(
            try phone(
                "put", Self.book,
                input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":1730000000000}}}"#
            ).status == 0)
        #expect(try phone("sync", password: password).status == 0)
        #expect(try tablet("clone", served.url("u1", user: "u1"), password: password).status == 0)
        #expect(
            try phone(
                "put", Self.book,
                input:
                    #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":1730000000000},"s2":{"completed":true,"updatedAt":1730100000000}}}"#
            ).status == 0)
        #expect(try phone("sync", password: password).status == 0)
        #expect(
            try tablet(
                "put", Self.book,
                input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":false,"updatedAt":1730200000000}}}"#
            ).status == 0)
        #expect(try tablet("checkpoint").status == 0)

        // The tablet's git merges with the "ours" strategy: the phone's s2 is dropped.
        let store = tablet.home + "/u1"
        let environment = ["GIT_CONFIG_NOSYSTEM": "1", "HOME": tablet.home]
        let remote = served.url("u1", user: "u1", password: password)
        for arguments in [
            ["fetch", "-q", remote, "main:refs/remotes/origin/main"], ["merge", "-q", "-s", "ours", "--no-edit", "origin/main"],
        ] {
            let ran = try runBounded("/usr/bin/git", ["-C", store] + arguments, environment: environment)
            #expect(ran.status == 0, "git \(arguments): \(ran.stderr)")
        }
        let wrong = try runBounded("/usr/bin/git", ["-C", store, "rev-parse", "--short=7", "HEAD"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        let before = try served.main("u1")
        // Pushed by git over HTTP: the hook merges again and refuses.
        let pushed = try runBounded("/usr/bin/git", ["-C", store, "push", remote, "main"], environment: environment)
        #expect(pushed.status != 0)
        #expect(
            pushed.stderr.contains("commit \(wrong): the merge of ")
                && pushed.stderr.contains("is not what the policies give: users/u1/books/b1 differs"),
            "\(pushed.stderr)")
        #expect(try served.main("u1") == before)
        // Pushed by Cairn: refused before it is sent, with the way out.
        let refused = try tablet("sync", password: password)
        #expect(refused.status == 1)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("commit \(wrong): the merge of "), "\(refused.stderr)")
        #expect(refused.stderr.contains("is not what the policies give: users/u1/books/b1 differs"), "\(refused.stderr)")
        #expect(try served.main("u1") == before, "nothing reached the server")

        // Undone: Cairn's merge of the same two passes the hook.
        #expect(try runBounded("/usr/bin/git", ["-C", store, "reset", "-q", "--hard", "HEAD~1"]).status == 0)
        let synced = try tablet("sync", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try served.main("u1") != before)
        #expect(try tablet("verify").stdout.hasPrefix("Verified "))
        let audited = try runBounded(CLI.executable, ["verify", "--git-dir", served.root + "/u1.git"])
        #expect(audited.status == 0, "\(audited.stdout)\(audited.stderr)")
    }
}
