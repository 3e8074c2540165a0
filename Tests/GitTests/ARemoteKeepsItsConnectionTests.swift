import CairnTestSupport
import Foundation
import Git
import Testing

/// A remote that fetches and then pushes does both on one connection, which libgit2's HTTP
/// client keeps; when the server closed that connection meanwhile (its keep-alive time ran
/// out), the push is made again at once on a new one, and lands. Against lighttpd and git's
/// `http-backend`, with basic auth on every request, the password sent from the first one
/// as Cairn sends it once a server asked (``Remote/headers``).
@Suite struct ARemoteKeepsItsConnectionTests {
    static let credentials = Credentials(username: "u1", password: "kept-pw")

    struct SetUpFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// A served bare repository, and a local one with a commit on `main` to push.
    struct Rig {
        let folder = TemporaryFolder("cairn-kept")
        let server: GitHTTPServer
        let local: Repository
        var bare: String { folder.path + "/repos/u1.git" }

        init(keepAliveIdleSeconds: Int) throws {
            try FileManager.default.createDirectory(atPath: folder.path + "/repos", withIntermediateDirectories: true)
            _ = try Repository.create(at: folder.path + "/repos/u1.git", initialBranch: "main", bare: true)
            let work = folder.path + "/local"
            for arguments in [
                ["init", "-q", "-b", "main", work],
                ["-C", work, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "one"],
            ] {
                let made = try runProcess("/usr/bin/git", arguments)
                guard made.status == 0 else { throw SetUpFailure(description: "git \(arguments): \(made.stderr)") }
            }
            local = try Repository(openingAt: work)
            server = try GitHTTPServer(
                root: folder.path + "/repos", users: ["u1": ARemoteKeepsItsConnectionTests.credentials.password],
                keepAliveIdleSeconds: keepAliveIdleSeconds)
        }

        var url: String { "http://u1@127.0.0.1:\(server.port)/git/u1.git" }

        /// The commit the server's `main` names ("" when none).
        func served() throws -> String {
            try runProcess("/usr/bin/git", ["--git-dir", bare, "rev-parse", "--verify", "-q", "refs/heads/main"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func head() throws -> String {
            try runProcess("/usr/bin/git", ["-C", folder.path + "/local", "rev-parse", "HEAD"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func remote(_ rig: Rig) throws -> Remote {
        let remote = try Remote(repository: rig.local, url: rig.url)
        let pair = Data((credentials.username + ":" + credentials.password).utf8).base64EncodedString()
        remote.headers = ["Authorization: Basic " + pair]
        return remote
    }

    @Test func aFetchAndThenAPushShareOneConnection() throws {
        let rig = try Rig(keepAliveIdleSeconds: 30)
        defer { rig.server.stop() }
        let remote = try Self.remote(rig)
        try remote.fetch(["+refs/heads/main:refs/remotes/origin/main"], credentials: Self.credentials)
        #expect(remote.endpointsReached == ["127.0.0.1:\(rig.server.port)"])
        let outcome = try remote.push(["refs/heads/main:refs/heads/main"], credentials: Self.credentials)
        #expect(outcome.rejections.isEmpty)
        #expect(remote.endpointsReached == [], "the push opened no connection of its own")
        #expect(remote.keptConnectionRetries == 0)
        #expect(try rig.served() == rig.head())
    }

    @Test func aConnectionTheServerClosedWhileIdleIsMadeAgain() throws {
        let rig = try Rig(keepAliveIdleSeconds: 1)
        defer { rig.server.stop() }
        let remote = try Self.remote(rig)
        try remote.fetch(["+refs/heads/main:refs/remotes/origin/main"], credentials: Self.credentials)
        // lighttpd looks for idle connections once a second: past 1 s of idleness, within 2 s.
        Thread.sleep(forTimeInterval: 2.5)
        let outcome = try remote.push(["refs/heads/main:refs/heads/main"], credentials: Self.credentials)
        #expect(outcome.rejections.isEmpty)
        #expect(remote.keptConnectionRetries == 1, "the push was made again once")
        #expect(remote.endpointsReached == ["127.0.0.1:\(rig.server.port)"], "on a new connection")
        #expect(try rig.served() == rig.head())
    }
}
