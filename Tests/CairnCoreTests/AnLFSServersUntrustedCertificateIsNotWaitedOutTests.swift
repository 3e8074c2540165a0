@testable import CairnCore
import CairnMerge
import CairnTestSupport
import Testing
import CairnToolTestSupport

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
