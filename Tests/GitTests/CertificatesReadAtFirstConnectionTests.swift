import CGit2
import CairnTestSupport
import Foundation
import Testing

@testable import Git

/// Where Debian's libgit2 looks for the system's CA certificates.
private let systemCertificateList = "/etc/ssl/certs/ca-certificates.crt"

/// Debian's libgit2 parses every CA certificate of the system at its start, about 5 ms in
/// each process; Cairn's start notes where they are instead, and reads them before the first
/// connection its process makes. Each story runs in a process of its own, where libgit2
/// starts afresh.
@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: systemCertificateList),
        "the system's CA certificates (Debian's ca-certificates) are installed"))
struct CertificatesReadAtFirstConnectionTests {

    @Test func aProcessThatNeverConnectsNeverReadsThem() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.path + "/cairn-certificates-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let repository = try Repository.create(at: folder, initialBranch: "main")
            _ = try repository.headCommit()
            // The set-up ran (the repository opened) and the system's list was only noted.
            if !GitLibrary.certificatesDeferred { exit(3) }
        }
    }

    @Test func theFirstConnectionReadsThemOnce() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.path + "/cairn-certificates-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let repository = try Repository.create(at: folder, initialBranch: "main")
            if !GitLibrary.certificatesDeferred { exit(3) }
            // A connection refused on a free port of 127.0.0.1 still goes through the stream.
            let remote = try Remote(repository: repository, url: "http://127.0.0.1:\(try Loopback.freePort())/u1.git")
            remote.timeout = 1
            if (try? remote.references()) != nil { exit(4) }
            if GitLibrary.certificatesDeferred { exit(5) }
            // libgit2 read the system's list without an error, and a second call reads nothing.
            if GitLibrary.loadCertificates() != 0 { exit(6) }
        }
    }

    /// How listing the references of a server with a self-signed certificate fails, in this
    /// process (an exit test's), with that certificate added to the list first or not; exits
    /// with 3 when the list cannot take it, 4 when the listing passes.
    static func failureListingASelfSignedServer(trustingIt: Bool) throws -> any Error {
        let folder = FileManager.default.temporaryDirectory.path + "/cairn-certificates-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try SelfSignedTLSServer(in: folder + "/tls")
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        if trustingIt, cgit2_set_ssl_cert_locations(server.certificate, nil) != 0 { exit(3) }
        let remote = try Remote(repository: repository, url: "https://localhost:\(server.port)/u1.git")
        remote.timeout = 10
        do {
            _ = try withExtendedLifetime(server) { try remote.references() }
            exit(4)
        } catch {
            return error
        }
    }

    /// The certificates read are the ones checked against: a server whose certificate the
    /// list holds passes the handshake (and then fails as what it is, a web server that does
    /// not speak git), and the same server fails its certificate check against the system's
    /// list, each in a process of its own.
    @Test func aServerIsCheckedAgainstTheCertificatesRead() async {
        await #expect(processExitsWith: .success) {
            guard let error = try Self.failureListingASelfSignedServer(trustingIt: true) as? GitError else { exit(7) }
            if case .certificateNotTrusted? = error.reason { exit(5) }
            if error.code == .certificate { exit(6) }
        }
        await #expect(processExitsWith: .success) {
            guard let error = try Self.failureListingASelfSignedServer(trustingIt: false) as? GitError else { exit(7) }
            guard case .certificateNotTrusted? = error.reason else { exit(5) }
        }
    }

    @Test func locationsAnAppSetsAreKept() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.path + "/cairn-certificates-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let repository = try Repository.create(at: folder, initialBranch: "main")
            if !GitLibrary.certificatesDeferred { exit(3) }
            // The app's own list, set before any connection: read by libgit2 at once, and
            // the noted one is not read over it.
            if cgit2_set_ssl_cert_locations(systemCertificateList, nil) != 0 { exit(4) }
            if GitLibrary.certificatesDeferred { exit(5) }
            let remote = try Remote(repository: repository, url: "http://127.0.0.1:\(try Loopback.freePort())/u1.git")
            remote.timeout = 1
            if (try? remote.references()) != nil { exit(6) }
            if GitLibrary.loadCertificates() != 0 { exit(7) }
        }
    }
}
