import CGit2
import CairnTestSupport
import Foundation
import Testing

@testable import Git

#if canImport(Glibc)
import Glibc
#endif

/// A failure says why in a value, not only in words: the HTTP status a server answered, a
/// password asked for or refused, a push behind the remote, a path with no repository, the
/// errno of a failed system call — set by the remote callbacks that saw it, or read once
/// from libgit2's message where that is all libgit2 1.5 gives.
@Suite struct FailureReasonTests {
    let temporary = TemporaryFolder("cairn-reason")
    let someone = Signature(name: "Test", email: "test@example.invalid", time: 1_730_000_000)

    /// What listing the references of `url` failed with (nil: it did not fail).
    func failure(listing url: String, credentials: Credentials? = nil) throws -> GitError? {
        let repository = try Repository.create(at: temporary.path + "/r", initialBranch: "main")
        let remote = try Remote(repository: repository, url: url)
        remote.timeout = 5
        do {
            _ = try remote.references(credentials: credentials)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [403, 404, 413, 500])
    func anHTTPStatusIsItsNumber(status: Int) throws {
        let server = try CannedHTTPServer(status: "\(status) Refused")
        let error = try #require(try failure(listing: "http://127.0.0.1:\(server.port)/u1.git"))
        #expect(error.reason == .httpStatus(status), "\(error)")
        #expect(error.message == "unexpected http status code: \(status)")
    }

    @Test func aPasswordAskedForAndNoneGivenIsNothingToOffer() throws {
        let server = try CannedHTTPServer(status: "401 Unauthorized", headers: ["WWW-Authenticate: Basic realm=\"git\""])
        let error = try #require(try failure(listing: "http://127.0.0.1:\(server.port)/u1.git"))
        #expect(error.code == .auth)
        #expect(error.reason == .authentication(.nothingToOffer), "\(error)")
    }

    @Test func aPasswordRefusedIsARefusal() throws {
        let server = try CannedHTTPServer(status: "401 Unauthorized", headers: ["WWW-Authenticate: Basic realm=\"git\""])
        let error = try #require(
            try failure(
                listing: "http://127.0.0.1:\(server.port)/u1.git",
                credentials: Credentials(username: "u1", password: "wrong")))
        #expect(error.code == .auth)
        #expect(error.reason == .authentication(.refused), "\(error)")
    }

    @Test func aFolderWithoutARepositoryIsNotFound() throws {
        let plain = temporary.path + "/plain"
        try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
        let error = try #require(try failure(listing: plain))
        #expect(error.reason == .repositoryNotFound(serverSaid: nil), "\(error)")
    }

    /// The remote's branch holds a commit this repository lacks: libgit2 refuses to push
    /// before sending anything.
    @Test func aPushBehindTheRemoteIsNonFastForward() throws {
        let bare = try Repository.create(at: temporary.path + "/bare.git", initialBranch: "main", bare: true)
        let theirs = try bare.createCommit(
            tree: try bare.emptyTree(), parents: [], message: "theirs\n",
            author: someone, committer: someone, updating: "refs/heads/main")
        let local = try Repository.create(at: temporary.path + "/local", initialBranch: "main")
        let ours = try local.createCommit(
            tree: try local.emptyTree(), parents: [], message: "ours\n",
            author: someone, committer: someone, updating: "HEAD")
        #expect(ours != theirs)
        let remote = try Remote(repository: local, url: temporary.path + "/bare.git")
        do {
            _ = try remote.push(["refs/heads/main:refs/heads/main"])
            Issue.record("pushed over a commit it lacks")
        } catch {
            #expect(error.code == .nonFastForward)
            #expect(error.reason == .nonFastForward, "\(error)")
        }
        #expect(try bare.reference("refs/heads/main") == theirs)
    }

    @Test func aFailedSystemCallCarriesItsErrno() throws {
        // A name longer than a file system allows (255 bytes): mkdir fails with ENAMETOOLONG.
        let tooLong = temporary.path + "/" + String(repeating: "n", count: 300)
        do {
            _ = try Repository.create(at: tooLong, initialBranch: "main")
            Issue.record("made a repository with a name of 300 bytes")
        } catch {
            #expect(error.isSystemFailure, "\(error)")
            #expect(error.reason == .system(errno: ENAMETOOLONG), "\(error)")
        }
    }

    // MARK: libgit2 1.5.1's words, read once

    static let os = Int32(GIT_ERROR_OS.rawValue)
    static let http = Int32(GIT_ERROR_HTTP.rawValue)
    static let ssh = Int32(GIT_ERROR_SSH.rawValue)
    static let net = Int32(GIT_ERROR_NET.rawValue)
    static let ssl = Int32(GIT_ERROR_SSL.rawValue)
    static let repository = Int32(GIT_ERROR_REPOSITORY.rawValue)
    static let reference = Int32(GIT_ERROR_REFERENCE.rawValue)
    static let odb = Int32(GIT_ERROR_ODB.rawValue)

    /// The message forms of libgit2 1.5.1's source, each with the reason it gives.
    static let forms: [(message: String, category: Int32, code: GitError.Code, function: String, reason: GitError.Reason?)] = [
        ("failed to write 'x/objects/pack/tmp': No space left on device", os, .generic, "git_odb_write", .system(errno: ENOSPC)),
        ("could not open 'x/HEAD': Read-only file system", os, .generic, "git_reference_create", .system(errno: EROFS)),
        ("failed to fsync 'x': Input/output error", os, .generic, "git_odb_write", .system(errno: EIO)),
        ("failed to splice: Too many references: cannot splice", os, .generic, "git_odb_write", .system(errno: ETOOMANYREFS)),
        (
            "failed to resolve path '/nowhere': No such file or directory", os, .notFound, "git_remote_fetch",
            .repositoryNotFound(serverSaid: nil)
        ),
        ("failed to resolve path '/nowhere': No such file or directory", os, .notFound, "git_repository_open_ext", .system(errno: ENOENT)),
        ("could not find repository from '/tmp/plain'", repository, .notFound, "git_remote_fetch", .repositoryNotFound(serverSaid: nil)),
        ("unexpected http status code: 404", http, .generic, "git_remote_fetch", .httpStatus(404)),
        ("unexpected http status code: 429", http, .generic, "git_remote_push", .httpStatus(429)),
        ("unexpected authentication failure", http, .auth, "git_remote_fetch", .authentication(.refused)),
        ("too many redirects or authentication replays", http, .generic, "git_remote_fetch", .authentication(.tooManyRounds)),
        ("invalid content-type: 'text/html'", http, .generic, "git_remote_fetch", nil),
        (
            "FATAL: R any u1 u2 DENIED by fallthru\n(or you mis-spelled the reponame)\n", ssh, .endOfFile, "git_remote_fetch",
            .accessDenied(serverSaid: "FATAL: R any u1 u2 DENIED by fallthru (or you mis-spelled the reponame)")
        ),
        (
            "fatal: '/srv/nobody.git' does not appear to be a git repository\n", ssh, .endOfFile, "git_remote_fetch",
            .repositoryNotFound(serverSaid: "fatal: '/srv/nobody.git' does not appear to be a git repository")
        ),
        (
            "  this server is closed today  \n\n", ssh, .endOfFile, "git_remote_fetch",
            .serverRefused(serverSaid: "this server is closed today")
        ),
        (" \n \t\n", ssh, .endOfFile, "git_remote_fetch", nil),
        (
            "Failed to authenticate SSH session: Unable to open public key file", ssh, .generic, "git_remote_fetch",
            .authentication(.libssh2(said: "Unable to open public key file", keyFile: nil))
        ),
        ("invalid or unknown remote ssh hostkey", ssh, .certificate, "git_remote_fetch", .hostKeyNotTrusted),
        ("failed to retrieve hostkey: Unable to get the host key", ssh, .generic, "git_remote_fetch", .hostKeyNotTrusted),
        ("user canceled hostkey check", net, .generic, "git_remote_fetch", .hostKeyNotTrusted),
        // mbedTLS's report: a line per failed check.
        (
            "the SSL certificate is invalid: 0x0c - The certificate Common Name (CN) does not match with the expected CN\nThe certificate is not correctly signed by the trusted CA\n",
            ssl, .certificate, "git_remote_fetch",
            .certificateNotTrusted(
                said:
                    "0x0c - The certificate Common Name (CN) does not match with the expected CN; The certificate is not correctly signed by the trusted CA"
            )
        ),
        (
            "the SSL certificate is invalid: 0x08 - The certificate is not correctly signed by the trusted CA", ssl, .certificate,
            "git_remote_fetch", .certificateNotTrusted(said: "0x08 - The certificate is not correctly signed by the trusted CA")
        ),
        // A TLS failure that is not the certificate's (the connection cut mid-handshake) may pass.
        ("SSL error: 0x7280 - SSL - The connection indicated an EOF", ssl, .generic, "git_remote_fetch", nil),
        ("SSH could not read data: Timed out waiting on socket", ssh, .generic, "git_remote_fetch", nil),
        ("the remote refused the credentials", Int32(GIT_ERROR_CALLBACK.rawValue), .auth, "git_remote_fetch", .authentication(.refused)),
        (
            "cannot push because a reference that you are trying to update on the remote contains commits that are not present locally.",
            reference, .nonFastForward, "git_remote_push", .nonFastForward
        ),
        // Words that look like a status or an errno in a message of another kind say nothing.
        ("object not found - no match for id (4041401403)", odb, .notFound, "git_odb_read", nil),
        ("cannot connect to 127.0.0.1 port 9: Connection refused", net, .generic, "git_remote_fetch", nil),
    ]

    @Test func libgit2sMessagesGiveTheirReasons() {
        for form in Self.forms {
            let reason = GitError.Reason(libgit2Message: form.message, category: form.category, code: form.code, function: form.function)
            #expect(reason == form.reason, "\(form.message)")
        }
    }

    @Test func aMissingMessageLeavesTheCodeToSpeak() {
        #expect(GitError.Reason(libgit2Message: nil, category: 0, code: .auth, function: "git_remote_fetch") == .authentication(.refused))
        #expect(GitError.Reason(libgit2Message: nil, category: 0, code: .generic, function: "git_remote_fetch") == nil)
    }

    @Test func aRefusedReferenceSaysWhetherTheBranchMoved() {
        for moved in [
            "non-fast-forward", "fetch first", "stale info", "failed to lock",
            "cannot lock ref 'refs/heads/main': is at 1234 but expected 5678", "failed to update ref",
            "failed to lock file '/srv/u1.git/refs/heads/main.lock' for writing: File exists",
        ] {
            #expect(PushRejection(status: moved).reason == .nonFastForward, "\(moved)")
        }
        #expect(
            PushRejection(status: "failed to write reference 'refs/heads/main': No space left on device").reason == .system(errno: ENOSPC))
        #expect(PushRejection(status: "pre-receive hook declined").reason == nil)
    }
}
