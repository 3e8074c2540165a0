import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore

/// The LFS client (libcurl) tells a server whose certificate this machine does not trust
/// from one it cannot reach: the first is refused at once (trying again meets the same
/// certificate), the second is a network failure that a sync tries again later.
@Suite(.historiesVerified) struct AnLFSServersUntrustedCertificateIsNotWaitedOutTests {
    let temporary = TemporaryFolder("cairn-lfs-tls")
    let object = AssetReference(oid: String(repeating: "a", count: 64), size: 1)

    @Test func aRequestToAnUntrustedServerSaysSo() throws {
        let server = try SelfSignedTLSServer(in: temporary.path + "/tls")
        let request = HTTPRequest(method: "GET", url: "https://localhost:\(server.port)/", timeout: 10)
        guard case .failure(let failure) = withExtendedLifetime(server, { request.send() }) else {
            Issue.record("a server signing its own certificate was answered")
            return
        }
        #expect(failure.kind == .certificateNotTrusted, "\(failure.reason)")
    }

    /// `GIT_SSL_CAINFO`, as git and git-lfs read it, makes the server's own certificate
    /// trusted: the request is answered (OpenSSL's test server answers any GET with a page).
    /// In a process of its own, whose environment nothing else reads.
    @Test func aServerWhoseCertificateGitsSettingNamesIsAnswered() async {
        await #expect(processExitsWith: .success) {
            let folder = FileManager.default.temporaryDirectory.path + "/cairn-lfs-trust-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let server = try SelfSignedTLSServer(in: folder)
            setenv("GIT_SSL_CAINFO", server.certificate, 1)
            let request = HTTPRequest(method: "GET", url: "https://localhost:\(server.port)/", timeout: 10)
            guard case .success = withExtendedLifetime(server, { request.send() }) else { exit(3) }
        }
    }

    @Test func aBatchToAnUntrustedServerIsRefusedNotANetworkFailure() throws {
        let server = try SelfSignedTLSServer(in: temporary.path + "/tls")
        let client = LFSClient(endpoint: "https://localhost:\(server.port)/u1.git/info/lfs", credentials: nil, timeout: 10)
        do {
            _ = try withExtendedLifetime(server) { () throws(CairnError) in try client.batch("download", [object]) }
            Issue.record("the batch passed")
        } catch {
            #expect(error.code == .authentication, "\(error)")
            #expect(error.message.contains("certificate is not trusted"), "\(error.message)")
        }
    }

    @Test func aServerThatCannotBeReachedIsStillANetworkFailure() throws {
        let port = try Loopback.freePort()
        let client = LFSClient(endpoint: "https://127.0.0.1:\(port)/u1.git/info/lfs", credentials: nil, timeout: 10)
        do {
            _ = try client.batch("download", [object])
            Issue.record("the batch passed")
        } catch {
            #expect(error.code == .network, "\(error)")
        }
    }
}
