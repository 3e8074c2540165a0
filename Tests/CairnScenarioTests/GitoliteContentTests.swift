import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Content repositories behind gitolite3 over SSH, with the rules CairnCore.docc's
/// SharedContent gives (`R = @all`, `RW = @assessments-authors`, Cairn's hook), and plain git with
/// each user's key as the client: the author publishes, another user fetches and may not
/// push, a key gitolite does not know does neither; what the hook refuses reaches the author.
@Suite(.serialized, .historiesVerified) struct GitoliteContentTests {
    static let assessment = ContentAccessTests.assessment
    static let question = ContentAccessTests.question

    /// Plain git over SSH offering `user`'s key alone (none: a key the server does not know).
    static func git(_ server: GitoliteServer, as user: String?, _ arguments: [String], in folder: String? = nil) throws -> ProcessResult {
        let home = server.base + "/../homes/" + (user ?? "stranger")
        if !FileManager.default.fileExists(atPath: home) {
            _ = try server.makeHome(user ?? "stranger")
        }
        var key = server.key(user ?? "admin")
        if user == nil {
            key = home + "/stranger"
            if !FileManager.default.fileExists(atPath: key) {
                _ = try runBounded("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key])
            }
        }
        let ssh =
            "ssh -F /dev/null -i \(key) -o IdentitiesOnly=yes -o IdentityAgent=none -o BatchMode=yes -o UserKnownHostsFile=\(home)/.ssh/known_hosts"
        return try runSSH(
            "/usr/bin/git", (folder.map { ["-C", $0] } ?? []) + ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"] + arguments,
            environment: ["GIT_SSH_COMMAND": ssh, "HOME": home, "GIT_TERMINAL_PROMPT": "0"])
    }

    static func commitAndPush(_ server: GitoliteServer, as user: String?, _ files: [String: String], in clone: String) throws
        -> ProcessResult
    {
        try ContentAccessTests.write(files, in: clone)
        _ = try git(server, as: user, ["add", "-A"], in: clone)
        _ = try git(server, as: user, ["commit", "-qm", "a version"], in: clone)
        return try git(server, as: user, ["push", "origin", "HEAD:main"], in: clone)
    }

    // The whole test's bound, counted from its start while the full run's long suites hold the
    // threads (each command is bounded on its own by runBounded).
    @Test(.runningTime(atMost: .seconds(600))) func everyUserFetchesOnlyAuthorsPush() throws {
        let server = try GitoliteServer(
            cairn: CLI.executable, owners: ["sam"],
            content: [
                GitoliteContent(collection: "assessments", items: ["a1"], schema: "edumind-content", authors: ["ada"])
            ])
        defer { server.stop() }
        let url = "ssh://root@127.0.0.1:\(server.port)/content/assessments/a1"
        let work = server.base + "/../work"
        let main = { try server.main(of: "content/assessments/a1") }

        let author = work + "/ada"
        let cloned = try Self.git(server, as: "ada", ["clone", "-q", url, author])
        #expect(cloned.status == 0, "\(cloned.stderr)\n\(server.log)")
        let first = try Self.commitAndPush(
            server, as: "ada",
            [
                "assessments/a1.json": Self.assessment,
                "assessments/a1/questions/q-001.json": Self.question,
            ], in: author)
        #expect(first.status == 0, "\(first.stderr)")
        let published = try main()
        #expect(!published.isEmpty)

        // The hook, through gitolite: a document the set refuses.
        let bad = try Self.commitAndPush(
            server, as: "ada",
            ["assessments/a1/questions/q-001.json": Self.question.replacingOccurrences(of: #""points": 1"#, with: #""points": -1"#)],
            in: author)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("assessments/a1/questions/q-001 breaks its schema (question.schema.json) at /points"), "\(bad.stderr)")
        #expect(try main() == published)

        // Another user reads, and may not write.
        let reader = work + "/sam"
        let fetched = try Self.git(server, as: "sam", ["clone", "-q", url, reader])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(FileManager.default.contents(atPath: reader + "/assessments/a1.json") == Data(Self.assessment.utf8))
        let pushed = try Self.commitAndPush(
            server, as: "sam", ["assessments/a1.json": Self.assessment.replacingOccurrences(of: "600", with: "6000")], in: reader)
        #expect(pushed.status != 0)
        #expect(pushed.stderr.contains("W any content/assessments/a1 sam DENIED"), "\(pushed.stderr)")
        #expect(try main() == published)

        // A key gitolite does not know: neither.
        let stranger = try Self.git(server, as: nil, ["clone", "-q", url, work + "/stranger"])
        #expect(stranger.status != 0)
        #expect(stranger.stderr.contains("Permission denied"), "\(stranger.stderr)")
    }

    /// A student's device downloads an item through gitolite with its own key; once the item is
    /// removed, gitolite denies a read of it as of one never made (`R any … DENIED`), which
    /// the device takes for "no such item": one line, exit 1, the copy it holds kept.
    // The whole test's bound, counted from its start while the full run's long suites hold the
    // threads (each command is bounded on its own by runBounded).
    @Test(.runningTime(atMost: .seconds(600))) func aDeviceDownloadsAnItemAndFindsItGoneOnceRemoved() throws {
        let server = try GitoliteServer(
            cairn: CLI.executable, owners: ["sam"],
            content: [
                GitoliteContent(collection: "assessments", items: ["a1"], schema: "edumind-content", authors: ["ada"])
            ])
        defer { server.stop() }
        let author = server.base + "/../work/ada"
        #expect(
            try Self.git(server, as: "ada", ["clone", "-q", "ssh://root@127.0.0.1:\(server.port)/content/assessments/a1", author]).status
                == 0)
        let published = try Self.commitAndPush(
            server, as: "ada",
            [
                "assessments/a1.json": Self.assessment,
                "assessments/a1/questions/q-001.json": Self.question,
            ], in: author)
        #expect(published.status == 0, "\(published.stderr)")

        let phone = try GitoliteSyncTests.Device("phone", of: "sam", on: server, agentKeys: ["sam"])
        #expect(try phone("init", "sam", "--schema", "edumind", "--remote", "progress:sam").status == 0)
        #expect(try phone("content", "remote").stdout == "progress:content/{collection}/{item}\n")
        let downloaded = try phone("content", "download", "assessments", "a1")
        #expect(
            downloaded.status == 0 && downloaded.stdout.hasPrefix("Downloaded assessments/a1 to version 1"),
            "\(downloaded.stderr)\n\(server.log)")

        let removed = try runBounded(CLI.executable, ["server", "content", "rm", server.base + "/repositories", "assessments", "a1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let denied = try Self.git(server, as: "sam", ["ls-remote", "ssh://root@127.0.0.1:\(server.port)/content/assessments/a1"])
        #expect(denied.stderr.contains("R any content/assessments/a1 sam DENIED"), "\(denied.stderr)")
        let gone = try phone("content", "download", "assessments", "a1")
        #expect(
            gone.status == 1 && gone.stderr.hasPrefix("cairn: there is no item assessments/a1 at progress:content/assessments/a1"),
            "\(gone.stderr)")
        #expect(gone.stderr.split(separator: "\n").count == 1, "\(gone.stderr)")
        #expect(try phone("content", "get", "assessments/a1/questions/q-001").status == 0)
    }
}
