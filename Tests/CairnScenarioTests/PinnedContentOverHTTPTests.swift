import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Seed 001 §6.1 scenarios 1 and 3 over real smart-HTTP servers (lighttpd, nginx): the student
/// downloads the assessment with their own credentials; the sync asks the item's server (with the user's credentials) for its latest version; an unchanged
/// item lets the answers go, an updated one holds them, and a deleted one — the server answers
/// 404 — holds them flagged.
@Suite(.serialized, .historiesVerified) struct PinnedContentOverHTTPTests {
    static let passwords = ["u1": "student-pw", "ada": "author-pw"]
    static let progress = SchemaSetFiles(
        name: "answers",
        files: [
            "response.schema.json": Array(
                #"""
                {"x-cairn": {"path": "users/{uid}/responses/{responseId}",
                             "pins": {"collection": "assessments", "item": "/assessment_id", "version": "/content_version"}},
                 "x-merge": "append-only", "type": "object",
                 "properties": {"assessment_id": {"type": "string"}, "content_version": {"type": "string"}}}
                """#.utf8)
        ])

    @discardableResult
    static func git(_ arguments: String...) throws -> String {
        let result = try runBounded("/usr/bin/git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"] + arguments)
        #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: GitServerKind.allCases)
    func theServerSaysUnchangedUpdatedOrDeleted(_ kind: GitServerKind) throws {
        let folder = TemporaryFolder("cairn-pins-http")
        let root = folder.path + "/repos"
        let item = root + "/content/assessments/a1.git"
        for arguments in [
            ["server", "init", root, "u1"],
            ["server", "content", "init", root, "assessments", "a1", "--schema", "edumind-content", "--author", "ada"],
        ] {
            let made = try runBounded(CLI.executable, arguments)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let work = folder.path + "/author"
        func publish(_ title: String) throws -> String {
            if !FileManager.default.fileExists(atPath: work) { try Self.git("clone", "-q", item, work) }
            try FileManager.default.createDirectory(atPath: work + "/assessments", withIntermediateDirectories: true)
            try Data(#"{"title":"\#(title)","timeLimitSeconds":600,"publishedAt":"2025-01-01T00:00:00Z"}"#.utf8)
                .write(to: URL(fileURLWithPath: work + "/assessments/a1.json"))
            try Self.git("-C", work, "add", "-A")
            try Self.git("-C", work, "commit", "-qm", title)
            try Self.git("--git-dir", item, "fetch", "-q", work, "+HEAD:refs/heads/main")
            return try Self.git("--git-dir", item, "rev-parse", "main")
        }
        let first = try publish("Algebra")
        let server = try kind.start(root: root, users: Self.passwords, contentAuthors: ["assessments": ["ada"]])
        defer { server.stop() }

        let home = Home(root: folder.path + "/phone")
        let store = try home.createStore("u1", schemaSet: Self.progress)
        try store.setRemote(try RemoteURL("http://u1@127.0.0.1:\(server.port)/git/u1.git"))
        let options = SyncOptions(retry: .none, credentials: Credentials(username: "u1", password: "student-pw"), sleep: { _ in })
        try store.sync(options)
        // The student downloads the assessment over the same server, with the same credentials.
        let cache = ContentCache(home: home)
        let download = try cache.download(collection: "assessments", item: "a1", for: store, options: options)
        #expect(download.item.commit.hex == first && download.item.version == 1, "\(server.errorLog)")

        try store.put(.object(["assessment_id": .string("a1")]), at: try DocumentPath("users/u1/responses/r1"))
        let unchanged = try store.sync(options)
        #expect(unchanged.pins.map(\.state) == [.unchanged], "\(server.errorLog)")
        #expect(unchanged.pushedCommits == 1)

        try store.put(.object(["assessment_id": .string("a1")]), at: try DocumentPath("users/u1/responses/r2"))
        let second = try publish("Algebra, corrected")
        let updated = try store.sync(options)
        #expect(updated.held)
        #expect(updated.pins.map(\.state) == [.updated])
        #expect(updated.pins.first?.pinnedVersion == first)
        #expect(updated.pins.first?.serverVersion == second)

        let removed = try runBounded(CLI.executable, ["server", "content", "rm", root, "assessments", "a1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let deleted = try store.sync(options)
        #expect(deleted.held)
        #expect(deleted.pins.map(\.state) == [.deleted], "\(server.errorLog)")
        #expect(deleted.pushedCommits == 0)
        // A download of the deleted item says so in one line (404); the copy held stays readable.
        do {
            _ = try cache.download(collection: "assessments", item: "a1", for: store, options: options)
            Issue.record("a deleted item was downloaded")
        } catch {
            #expect(error.code == .notFound && error.message.hasPrefix("there is no item assessments/a1 at http://"), "\(error.message)")
        }
        #expect(try cache.item(collection: "assessments", item: "a1")?.commit.hex == first)
        #expect(try cache.document(at: DocumentPath("assessments/a1"))?.field("title") == .string("Algebra"))
    }

    /// An item whose ID has a space and accented letters (valid under Cairn's ID rules) is
    /// downloaded over HTTP: the URL template is filled with the ID percent-encoded, and each
    /// server decodes it to the item's folder.
    @Test(arguments: GitServerKind.allCases)
    func anItemWhoseIDHasASpaceAndAccentsIsDownloadedOverHTTP(_ kind: GitServerKind) throws {
        let folder = TemporaryFolder("cairn-content-ids")
        let root = folder.path + "/repos"
        let id = "Quiz Ünï 1"
        for arguments in [
            ["server", "init", root, "u1"],
            ["server", "content", "init", root, "assessments", id, "--schema", "edumind-content", "--author", "ada"],
        ] {
            let made = try runBounded(CLI.executable, arguments)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let item = root + "/content/assessments/\(id).git"
        let work = folder.path + "/author"
        try Self.git("clone", "-q", item, work)
        try FileManager.default.createDirectory(atPath: work + "/assessments", withIntermediateDirectories: true)
        try Data(#"{"title":"Ünïcode","timeLimitSeconds":600,"publishedAt":"2025-01-01T00:00:00Z"}"#.utf8)
            .write(to: URL(fileURLWithPath: work + "/assessments/\(id).json"))
        try Self.git("-C", work, "add", "-A")
        try Self.git("-C", work, "commit", "-qm", "publish")
        try Self.git("--git-dir", item, "fetch", "-q", work, "+HEAD:refs/heads/main")
        let server = try kind.start(root: root, users: Self.passwords, contentAuthors: ["assessments": ["ada"]])
        defer { server.stop() }

        let home = folder.path + "/phone"
        let url = "http://u1@127.0.0.1:\(server.port)/git/u1.git"
        let environment = ["CAIRN_PASSWORD": "student-pw"]
        #expect(try runBounded(CLI.executable, ["--home", home, "init", "u1", "--remote", url]).status == 0)
        let downloaded = try runBounded(
            CLI.executable, ["--home", home, "content", "download", "assessments", id], environment: environment)
        #expect(downloaded.status == 0, "\(downloaded.stderr) \(server.errorLog)")
        #expect(downloaded.stdout.hasPrefix("Downloaded assessments/\(id) to version 1 ("), "\(downloaded.stdout)")
        let read = try runBounded(CLI.executable, ["--home", home, "content", "get", "assessments/\(id)"])
        #expect(read.stdout.contains("Ünïcode"), "\(read.stdout)\(read.stderr)")
        // The pin check of a sync reaches the same item by the same URL.
        let checked = try runBounded(CLI.executable, ["--home", home, "sync"], environment: environment)
        #expect(checked.status == 0, "\(checked.stderr)")
    }
}
