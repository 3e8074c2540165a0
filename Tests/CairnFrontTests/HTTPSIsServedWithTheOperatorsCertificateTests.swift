import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `--tls-cert` and `--tls-key`: the server speaks HTTPS with the operator's certificate, and
/// a client that trusts it (curl, plain git) reaches the repositories through it.
@Suite(.serialized, .historiesVerified) struct HTTPSIsServedWithTheOperatorsCertificateTests {
    let folder = TemporaryFolder("cairn-front-tls")
    let provider: IdentityProvider
    init() throws { provider = try IdentityProvider(project: "exam-app") }

    @Test func aClientThatTrustsTheCertificateClonesOverHTTPS() throws {
        let (certificate, key) = (folder.path + "/cert.pem", folder.path + "/key.pem")
        let made = try runBounded("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                                        "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
                                                        "-addext", "subjectAltName=IP:127.0.0.1"])
        #expect(made.status == 0, "\(made.stderr)")
        let served = try ServedFront(folder: folder.path + "/server", provider: provider, arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { served.stop() }
        let token = try provider.token(for: "u1")
        let base = "https://127.0.0.1:\(served.port)/git/u1.git"
        let refs = try runBounded("/usr/bin/curl", ["-s", "--cacert", certificate, "-u", "u1:" + token, base + "/info/refs?service=git-upload-pack"])
        #expect(refs.status == 0 && refs.stdout.contains("# service=git-upload-pack"), "\(refs.stderr)")
        // Without the certificate trusted, no connection.
        #expect(try runBounded("/usr/bin/curl", ["-s", "-u", "u1:" + token, base + "/info/refs?service=git-upload-pack"]).status != 0)
        // Plain git, trusting it, with the token from a credential helper.
        let helper = folder.path + "/helper.sh"
        try "#!/bin/sh\necho username=u1\necho password=\(token)\n".write(toFile: helper, atomically: true, encoding: .utf8)
        _ = try runBounded("/bin/chmod", ["700", helper])
        let cloned = try runBounded("/usr/bin/git", ["-c", "credential.helper=" + helper, "clone", "-q", base, folder.path + "/plain"],
                                    environment: ["GIT_SSL_CAINFO": certificate])
        #expect(cloned.status == 0, "\(cloned.stderr)")
    }
}
