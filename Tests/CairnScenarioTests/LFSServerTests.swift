import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The tests' Git LFS server (giftless behind lighttpd, ``LFSGitServer``) with plain git and
/// Debian's git-lfs as the client: an asset pushed by its owner lands in the server's storage
/// and comes back to another clone, and only the owner reaches a repository's objects, through
/// the batch API and the transfers alike.
///
/// The repositories are plain bare ones: Cairn's hook refuses the pointer files git-lfs
/// commits (a pointer is neither a document's path nor valid JSON).
@Suite(.serialized, .historiesVerified) struct LFSServerTests {
    static let passwords = ["u1": "p@ss-1", "u2": "p@ss-2"]

    /// Why a test's set-up failed.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// Bare repositories `u1.git` and `u2.git`, served with their LFS endpoints.
    final class Served {
        let folder = TemporaryFolder("cairn-lfs")
        let server: LFSGitServer
        var root: String { folder.path + "/repos" }

        init() throws {
            let root = folder.path + "/repos"
            for uid in ["u1", "u2"] {
                let made = try runBounded("/usr/bin/git", ["init", "--quiet", "--bare", "-b", "main", root + "/\(uid).git"])
                guard made.status == 0 else {
                    throw SetupError(description: "git init --bare failed: \(made.stderr)")
                }
            }
            server = try LFSGitServer(root: root, users: LFSServerTests.passwords)
        }
    }

    /// A user's machine: a home of its own with git-lfs's filters installed, and git run there.
    final class Machine {
        let home = TemporaryFolder("cairn-lfs-home")

        init() throws {
            try git(["config", "--global", "user.name", "Test"])
            try git(["config", "--global", "user.email", "test@example.invalid"])
            try git(["lfs", "install", "--skip-repo"])
        }

        /// Runs `git ARGS…` in `directory` (the home when nil); throws when it fails.
        @discardableResult
        func git(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> String {
            let result = try runBounded(
                "/usr/bin/git", ["-C", directory ?? home.path] + arguments,
                environment: ["HOME": home.path, "GIT_CONFIG_NOSYSTEM": "1"].merging(environment) { $1 })
            guard result.status == 0 else {
                throw SetupError(description: "git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
            }
            return result.stdout
        }
    }

    /// `count` bytes that no other run repeats.
    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The SHA-256 of the file at `path` in hex, by coreutils' sha256sum.
    static func sha256(_ path: String) throws -> String {
        let result = try runBounded("/usr/bin/sha256sum", [path])
        return String(result.stdout.prefix(64))
    }

    // The whole test's bound, counted from its start while the full run's long suites hold the
    // threads (each command is bounded on its own by runBounded).
    @Test(.runningTime(atMost: .seconds(600)))
    func anAssetPushedByItsOwnerReachesTheStorageAndComesBackToAnotherClone() throws {
        let served = try Served()
        defer { served.server.stop() }
        let machine = try Machine()
        let remote = served.server.url(for: "u1", user: "u1", password: Self.passwords["u1"])
        let first = machine.home.path + "/first"
        try machine.git(["clone", "--quiet", remote, first])
        try machine.git(["lfs", "track", "*.m4a"], in: first)
        let recording = Self.randomBytes(300_000)
        try recording.write(to: URL(fileURLWithPath: first + "/session.m4a"))
        try machine.git(["add", ".gitattributes", "session.m4a"], in: first)
        try machine.git(["commit", "--quiet", "-m", "A session's recording"], in: first)
        try machine.git(["push", "--quiet", "origin", "main"], in: first)

        let oid = try Self.sha256(first + "/session.m4a")
        let stored = served.server.objectPath(uid: "u1", oid: oid)
        #expect(FileManager.default.contents(atPath: stored) == recording, "\(stored) holds other bytes:\n\(served.server.errorLog)")
        #expect(!FileManager.default.fileExists(atPath: served.server.objectPath(uid: "u2", oid: oid)))
        // The repository holds the pointer, not the bytes.
        let pointer = try machine.git(["--git-dir", served.root + "/u1.git", "cat-file", "-p", "main:session.m4a"])
        #expect(pointer.hasPrefix("version https://git-lfs.github.com/spec/v1\n"))
        #expect(pointer.contains("oid sha256:\(oid)\nsize 300000\n"))

        // A clone that skips the download has the pointer; `git lfs pull` fetches the bytes.
        let second = machine.home.path + "/second"
        try machine.git(["clone", "--quiet", remote, second], environment: ["GIT_LFS_SKIP_SMUDGE": "1"])
        #expect(FileManager.default.contents(atPath: second + "/session.m4a") == Data(pointer.utf8))
        try machine.git(["lfs", "pull"], in: second)
        #expect(FileManager.default.contents(atPath: second + "/session.m4a") == recording)
    }

    /// Who asks, in the access matrix.
    enum Asker: String, CaseIterable, CustomTestStringConvertible {
        case owner, otherUser, anonymous, wrongPassword
        var testDescription: String { rawValue }

        /// The `Authorization` header it sends (none for anonymous).
        var authorization: String? {
            let credentials: String
            switch self {
            case .owner: credentials = "u1:" + LFSServerTests.passwords["u1"]!
            case .otherUser: credentials = "u2:" + LFSServerTests.passwords["u2"]!
            case .anonymous: return nil
            case .wrongPassword: credentials = "u1:" + LFSServerTests.passwords["u2"]!
            }
            return "Basic " + Data(credentials.utf8).base64EncodedString()
        }
    }

    /// Python's http.client making one request: the method, URL, Authorization header ("" for
    /// none), the file of the body ("" for none) and the file the answer's body goes to; prints
    /// the status. (Python's, not Foundation's HTTP client, which waits forever on some answers
    /// of 401 to a request with a body.)
    static let client = """
        import http.client, sys, urllib.parse
        method, url, authorization, body, answer = sys.argv[1:]
        parts = urllib.parse.urlsplit(url)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        headers = {"Accept": "application/vnd.git-lfs+json", "Content-Type": "application/vnd.git-lfs+json"}
        if authorization:
            headers["Authorization"] = authorization
        connection.request(method, parts.path, open(body, "rb").read() if body else None, headers)
        response = connection.getresponse()
        open(answer, "wb").write(response.read())
        print(response.status)
        """

    /// An HTTP request to the server; its status and body.
    static func request(_ url: String, method: String, body: Data? = nil, as asker: Asker) throws -> (status: Int, body: Data) {
        let folder = TemporaryFolder("cairn-lfs-request")
        let bodyFile = body == nil ? "" : folder.path + "/body"
        try body?.write(to: URL(fileURLWithPath: bodyFile))
        let answer = folder.path + "/answer"
        let result = try runBounded(
            "/usr/bin/python3", ["-I", "-c", client, method, url, asker.authorization ?? "", bodyFile, answer],
            limit: 15)
        let status = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (status, FileManager.default.contents(atPath: answer) ?? Data())
    }

    /// A batch request of `operation` for one object to `uid`'s LFS endpoint: the status, and
    /// the href of the object's `action` when the answer has one.
    static func batch(
        _ served: Served, uid: String = "u1", _ operation: String, oid: String, size: Int,
        action: String, as asker: Asker
    ) throws -> (status: Int, href: String?) {
        let body = #"{"operation":"\#(operation)","transfers":["basic"],"objects":[{"oid":"\#(oid)","size":\#(size)}]}"#
        let answer = try request(
            served.server.lfsURL(for: uid) + "/objects/batch", method: "POST",
            body: Data(body.utf8), as: asker)
        let decoded = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        let object = (decoded?["objects"] as? [[String: Any]])?.first
        let href = ((object?["actions"] as? [String: Any])?[action] as? [String: Any])?["href"] as? String
        return (answer.status, href)
    }

    // The whole test's bound, counted from its start while the full run's long suites hold the
    // threads (each command is bounded on its own by runBounded).
    @Test(.runningTime(atMost: .seconds(600)), arguments: Asker.allCases)
    func onlyTheOwnerDownloadsOrUploadsTheRepositorysObjects(asker: Asker) throws {
        let served = try Served()
        defer { served.server.stop() }
        let object = Self.randomBytes(4096)
        let oid = try {
            let file = served.folder.path + "/object"
            try object.write(to: URL(fileURLWithPath: file))
            return try Self.sha256(file)
        }()
        let stored = served.server.objectPath(uid: "u1", oid: oid)
        let storageURL = served.server.lfsURL(for: "u1") + "/objects/storage/" + oid

        // Upload: the batch API hands out the upload action, and the transfer stores the bytes.
        let upload = try Self.batch(served, "upload", oid: oid, size: object.count, action: "upload", as: asker)
        let put = try Self.request(upload.href ?? storageURL, method: "PUT", body: object, as: asker)
        if asker == .owner {
            #expect(upload.status == 200 && upload.href == storageURL, "\(served.server.errorLog)")
            #expect(put.status == 200)
            #expect(FileManager.default.contents(atPath: stored) == object)
        } else {
            #expect(upload.status == 401 && upload.href == nil)
            #expect(put.status == 401)
            #expect(!FileManager.default.fileExists(atPath: stored))
        }

        // Download of an object the owner has stored.
        if asker != .owner {
            let owners = try Self.batch(served, "upload", oid: oid, size: object.count, action: "upload", as: .owner)
            let stored = try Self.request(owners.href ?? storageURL, method: "PUT", body: object, as: .owner)
            try #require(stored.status == 200, "\(served.server.errorLog)")
        }
        let download = try Self.batch(served, "download", oid: oid, size: object.count, action: "download", as: asker)
        let get = try Self.request(download.href ?? storageURL, method: "GET", as: asker)
        if asker == .owner {
            #expect(download.status == 200 && download.href == storageURL)
            #expect(get.status == 200 && get.body == object)
        } else {
            #expect(download.status == 401 && download.href == nil)
            #expect(get.status == 401 && get.body != object)
        }

        // At their own endpoint, the other user does not find the owner's object (giftless
        // answers 404 when it finds none of the objects asked for).
        if asker == .otherUser {
            let theirs = try Self.batch(
                served, uid: "u2", "download", oid: oid, size: object.count,
                action: "download", as: asker)
            #expect(theirs.status == 404 && theirs.href == nil)
        }
    }
}
