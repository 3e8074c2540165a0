import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The audit every test of the suites that make stores ends with (``HistoriesVerified``):
/// it keeps the test's folders to its end, finds every store and every repository holding a
/// store's history in them, and reports each finding; a history made unsound on purpose is
/// left out only when the test says why.
@Suite(.historiesVerified) struct EveryHistoryIsVerifiedTests {
    let folder = TemporaryFolder("cairn-audited")

    @Test func aFolderOfTheSuiteIsKeptForTheAudit() throws {
        #expect(TestFolders.current?.all.contains(folder.path) == true, "the suite's own folder, made for this test")
        let inner = TemporaryFolder("cairn-inner")
        #expect(TestFolders.current?.all.contains(inner.path) == true)
    }

    @Test func theAuditFindsEveryStoreAndServerAndEachFinding() throws {
        // Its own folders, audited here rather than at the end of the test.
        let folders = TestFolders()
        let made = TestFolders.$current.withValue(folders) { TemporaryFolder("cairn-audit-case") }
        let root = made.path
        _ = try Server.createRepositories(in: root + "/server", uids: ["u1"], cairn: "cairn")
        let store = try Home(root: root + "/phone").createStore(
            "u1",
            schemaSet: SchemaSetFiles(
                name: "notes",
                files: [
                    "note.schema.json": Array(
                        #"{"x-cairn":{"path":"users/{uid}/notes/{id}"},"type":"object","properties":{"n":{"type":"integer","maximum":5}}}"#
                            .utf8)
                ]))
        try store.setRemote(RemoteURL(root + "/server/u1.git"))
        try store.put(.object(["n": .integer(1)]), at: DocumentPath("users/u1/notes/a"))
        try store.sync(SyncOptions(retry: .none))
        // A content item's repository and a plain folder: no store's history, not audited.
        _ = try runProcess("/usr/bin/git", ["init", "-q", "--bare", root + "/server/content/c/i.git"])
        #expect(Set(HistoriesVerified.repositories(under: root)) == [root + "/server/u1.git", root + "/phone/u1/.git"])
        #expect(HistoriesVerified.problems(in: folders).isEmpty)

        // A note over its maximum, committed with plain git and pushed past the hook.
        try "{\"n\": 9}\n".write(toFile: store.folder + "/users/u1/notes/a.json", atomically: true, encoding: .utf8)
        #expect(try runProcess("/usr/bin/git", ["-C", store.folder, "commit", "-qam", "by hand"]).status == 0)
        try FileManager.default.removeItem(atPath: root + "/server/u1.git/hooks/pre-receive")
        #expect(try runProcess("/usr/bin/git", ["-C", store.folder, "push", "-q", root + "/server/u1.git", "main"]).status == 0)
        let problems = HistoriesVerified.problems(in: folders)
        #expect(problems.count == 2, "the store and the server: \(problems)")
        #expect(problems.allSatisfy { $0.contains("users/u1/notes/a breaks its schema") }, "\(problems)")
        // Left out with a reason, it is not reported.
        folders.exempt(root + "/server", because: "the test pushed past the hook")
        folders.exempt(store.folder, because: "the test committed by hand")
        #expect(HistoriesVerified.problems(in: folders).isEmpty)
        folders.removeAll()
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    /// Every suite of the test targets that make stores carries the audit, so a new suite
    /// cannot leave it out unnoticed.
    @Test func everySuiteThatMakesStoresCarriesTheAudit() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var missing: [String] = []
        var suites = 0
        for target in [
            "CairnCLITests", "CairnScenarioTests", "CairnServerTests", "CairnCoreTests", "CairnFirestoreTests", "CairnTestingTests",
            "CairnSimulationTests",
            "CairnFrontTests",
        ] {
            let folder = tests.appendingPathComponent(target).path
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".swift") {
                let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("@Suite") {
                    suites += 1
                    if !line.contains(".historiesVerified") { missing.append("\(target)/\(name): \(line)") }
                }
            }
        }
        #expect(suites > 100, "\(suites) suites found")
        #expect(missing.isEmpty, "\(missing)")
    }
}
