import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A remote over https:// whose server shows a certificate this machine does not trust (one
/// it signed itself, here) is refused at the first try: trying again later meets the same
/// certificate, so it is not a network failure to wait out (exit 75, then 5 s, 30 s and
/// 5 min of retries), but a refusal with one line that says what to check.
///
/// The server is OpenSSL's own test server on 127.0.0.1 (``SelfSignedTLSServer``): the
/// handshake is real, and nothing past it is needed.
@Suite(.runningTime(atMost: .seconds(60)), .historiesVerified)
struct AnUntrustedCertificateIsRefusedAtOnceTests {
    /// One retry is allowed: a failure taken for a network one would wait 5 s, try again,
    /// and exit 75.
    @Test func aCloneFailsAtOnceWithOneLineNamingTheCertificate() throws {
        let cli = CLI()
        let server = try SelfSignedTLSServer(in: cli.scratch("tls"))
        let cloned = try withExtendedLifetime(server) {
            try cli("clone", "https://localhost:\(server.port)/u1.git", "--user", "u1", environment: ["CAIRN_SYNC_RETRY": "5"])
        }
        #expect(cloned.status == 1, "\(cloned.stderr)")
        let lines = cloned.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(cloned.stderr)")
        #expect(cloned.stderr.contains("https://localhost:\(server.port)/u1.git"))
        #expect(cloned.stderr.contains("certificate is not trusted"), "\(cloned.stderr)")
        #expect(cloned.stderr.contains("not correctly signed by the trusted CA"), "libgit2's reason: \(cloned.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.home + "/u1"), "a failed clone left a store behind")
    }

    /// A sync with such a remote is refused the same way; the write it checkpointed first
    /// stays, and the working tree is as it was.
    @Test func aSyncFailsAtOnceAndTheStoreKeepsItsWrites() throws {
        let cli = CLI()
        let server = try SelfSignedTLSServer(in: cli.scratch("tls"))
        #expect(try cli("init", "u1", "--remote", "https://localhost:\(server.port)/u1.git").status == 0)
        #expect(try cli("put", "users/u1/notes/n1", input: #"{"text": "kept"}"#).status == 0)
        var before = try cli.snapshot("u1")
        before[".git/HEAD-commit"] = nil
        let synced = try withExtendedLifetime(server) { try cli("sync", environment: ["CAIRN_SYNC_RETRY": "5"]) }
        #expect(synced.status == 1, "\(synced.stderr)")
        #expect(synced.stderr.split(separator: "\n").count == 1, "\(synced.stderr)")
        #expect(synced.stderr.contains("certificate is not trusted"), "\(synced.stderr)")
        var after = try cli.snapshot("u1")
        after[".git/HEAD-commit"] = nil
        #expect(after == before)
        #expect(try cli.git("u1", "show", "HEAD:users/u1/notes/n1.json").stdout.contains("kept"))
    }
}
