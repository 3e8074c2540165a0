import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An app's users on `cairn server run`: each device syncs with the ID token its app holds,
/// the user's repository exists from the first sync, two users never see each other's, and
/// plain git with a credential helper reaches the same repository with the same token.
@Suite(.serialized, .historiesVerified) struct DevicesSyncWithTheTokenTheirAppHoldsTests {
    let folder = TemporaryFolder("cairn-front-devices")
    let provider: IdentityProvider
    init() throws { provider = try IdentityProvider(project: "exam-app") }

    /// `cairn --home DEVICE ARGS…` with `CAIRN_TOKEN`, retries off.
    @discardableResult
    func on(_ device: String, _ arguments: [String], token: String?, input: String? = nil, environment: [String: String] = [:]) throws
        -> ProcessResult
    {
        var variables = ["CAIRN_SYNC_RETRY": "none"]
        if let token { variables["CAIRN_TOKEN"] = token }
        return try runBounded(
            CLI.executable, ["--home", folder.path + "/" + device] + arguments, input: input,
            environment: variables.merging(environment) { $1 }, removing: ["CAIRN_TOKEN", "CAIRN_PASSWORD", "CAIRN_USERNAME"], limit: 60)
    }

    @Test func twoDevicesOfAUserAndASecondUserSyncAndTheirRepositoriesAreMadeOnTheirFirstSync() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { served.stop() }
        let (u1, u2) = (try provider.token(for: "u1"), try provider.token(for: "u2", ["--alg", "ES256"]))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/server/u1.git"))
        #expect(try on("phone", ["init", "u1", "--remote", served.url("u1")], token: nil).status == 0)
        #expect(try on("phone", ["put", "users/u1/books/b1"], token: nil, input: #"{"read": 3}"#).status == 0)
        let first = try on("phone", ["sync"], token: u1)
        #expect(first.status == 0, "\(first.stderr)\n\(served.log)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/server/u1.git/hooks/pre-receive"), "made with Cairn's hooks")
        let cloned = try on("tablet", ["clone", served.url("u1")], token: u1)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(try on("tablet", ["put", "users/u1/books/b2"], token: nil, input: #"{"read": 1}"#).status == 0)
        #expect(try on("tablet", ["sync"], token: u1).status == 0)
        #expect(try on("phone", ["sync"], token: u1).status == 0)
        #expect(try on("phone", ["ls", "users/u1/books"], token: nil).stdout == "b1\nb2\n")

        // A push whose pack is far larger than a pipe holds (200 KB that do not compress): the
        // backend reads it as the server writes it, and the other device gets it whole.
        var random = SystemRandomNumberGenerator()
        let noise = Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString()
        #expect(try on("tablet", ["put", "users/u1/books/b3"], token: nil, input: #"{"notes": "\#(noise)"}"#).status == 0)
        let large = try on("tablet", ["sync"], token: u1)
        #expect(large.status == 0, "\(large.stderr)\n\(served.log)")
        #expect(try on("phone", ["sync"], token: u1).status == 0)
        #expect(try on("phone", ["get", "users/u1/books/b3"], token: nil).stdout.contains(noise))

        // A second user beside them, with a token of the other algorithm.
        #expect(try on("laptop", ["init", "u2", "--remote", served.url("u2")], token: nil).status == 0)
        #expect(try on("laptop", ["put", "users/u2/books/b9"], token: nil, input: #"{"read": 9}"#).status == 0)
        #expect(try on("laptop", ["sync"], token: u2).status == 0)
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path + "/server")) == ["u1.git", "u2.git"])
        // u1's token does not reach u2's repository.
        let stranger = try on("spy", ["clone", served.url("u2")], token: u1)
        #expect(stranger.status == 1 && stranger.stderr.contains("HTTP 403"), "\(stranger.stderr)")
        // Every device sent its token from its first request: none was answered 401 to be
        // asked for it (plain git's, below, is).
        let asked = served.requestLines
        #expect(asked.count >= 8 && !asked.contains { $0.contains("status=401") }, "\(asked.joined(separator: "\n"))")

        // Plain git, with a credential helper that prints the token as the password.
        let helper = folder.path + "/helper.sh"
        try "#!/bin/sh\necho username=u1\necho password=\(u1)\n".write(toFile: helper, atomically: true, encoding: .utf8)
        #expect(chmod(helper, 0o700) == 0)
        let plain = try runBounded(
            "/usr/bin/git",
            [
                "-c", "credential.helper=" + helper, "clone", "-q",
                "http://127.0.0.1:\(served.port)/git/u1.git", folder.path + "/plain",
            ])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/plain/users/u1/books/b2.json"))

        // One log line per request: its id, user, route, status and time; never the token.
        let lines = served.requestLines
        #expect(lines.count >= 8, "\(served.log)")
        for line in lines {
            #expect(["request=", "uid=", "route=", "status=", "ms="].allSatisfy { line.contains($0) }, "\(line)")
        }
        #expect(
            lines.contains {
                $0.contains("uid=u1") && $0.contains("route=receive-pack") && $0.contains("push=accepted") && $0.contains("status=200")
            })
        for token in [u1, u2] { #expect(!served.log.contains(token.suffix(40))) }
    }

    /// The first syncs of two devices of a new user at the same moment: one repository, and
    /// both syncs succeed.
    @Test func twoFirstSyncsAtOnceMakeOneRepository() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { served.stop() }
        let token = try provider.token(for: "u7")
        var processes: [ChildProcess] = []
        for device in ["a", "b", "c"] {
            #expect(try on(device, ["init", "u7", "--remote", served.url("u7")], token: nil).status == 0)
            #expect(try on(device, ["put", "users/u7/notes/\(device)"], token: nil, input: #"{"by": "\#(device)"}"#).status == 0)
        }
        for device in ["a", "b", "c"] {
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: CLI.executable)
            process.arguments = ["--home", folder.path + "/" + device, "sync"]
            var environment = ProcessInfo.processInfo.environment
            environment["CAIRN_TOKEN"] = token
            environment["CAIRN_SYNC_RETRY"] = "0.2,0.5,1"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            processes.append(process)
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/server") == ["u7.git"], "no copy left beside it")
        #expect(served.log.components(separatedBy: "] provisioned").count - 1 == 1, "\(served.log)")
        // Each device syncs once more, and all hold the three notes.
        for device in ["a", "b", "c"] { #expect(try on(device, ["sync"], token: token).status == 0) }
        for device in ["a", "b", "c"] {
            #expect(try on(device, ["ls", "users/u7/notes"], token: nil).stdout == "a\nb\nc\n")
        }
    }
}
