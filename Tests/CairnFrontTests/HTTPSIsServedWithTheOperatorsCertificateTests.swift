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
        let made = try runBounded(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let served = try ServedFront(
            folder: folder.path + "/server", provider: provider, arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { served.stop() }
        let token = try provider.token(for: "u1")
        let base = "https://127.0.0.1:\(served.port)/git/u1.git"
        let refs = try runBounded(
            "/usr/bin/curl", ["-s", "--cacert", certificate, "-u", "u1:" + token, base + "/info/refs?service=git-upload-pack"])
        #expect(refs.status == 0 && refs.stdout.contains("# service=git-upload-pack"), "\(refs.stderr)")
        // Without the certificate trusted, no connection.
        #expect(try runBounded("/usr/bin/curl", ["-s", "-u", "u1:" + token, base + "/info/refs?service=git-upload-pack"]).status != 0)
        // Plain git, trusting it, with the token from a credential helper.
        let helper = folder.path + "/helper.sh"
        try "#!/bin/sh\necho username=u1\necho password=\(token)\n".write(toFile: helper, atomically: true, encoding: .utf8)
        _ = try runBounded("/bin/chmod", ["700", helper])
        let cloned = try runBounded(
            "/usr/bin/git", ["-c", "credential.helper=" + helper, "clone", "-q", base, folder.path + "/plain"],
            environment: ["GIT_SSL_CAINFO": certificate])
        #expect(cloned.status == 0, "\(cloned.stderr)")
    }

    /// A device trusts the operator's certificate as git does, through `GIT_SSL_CAINFO` or the
    /// store's `http.sslCAInfo`, and then clones and syncs over HTTPS; without either, the
    /// certificate is refused; a file that holds no certificate is refused in one line that
    /// names it and the setting, and nothing is written.
    @Test func aDeviceTrustsTheCertificateGitsSettingsName() throws {
        let (certificate, key) = (folder.path + "/device-cert.pem", folder.path + "/device-key.pem")
        // The name the device connects to: libgit2's TLS matches host names, not addresses.
        let made = try runBounded(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let served = try ServedFront(
            folder: folder.path + "/device-server", provider: provider,
            arguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { served.stop() }
        let url = "https://localhost:\(served.port)/git/u1.git"
        // One retry, 0.1 s later: a failure taken for a network one would show as status 75.
        let signedIn = ["CAIRN_USERNAME": "u1", "CAIRN_PASSWORD": try provider.token(for: "u1"), "CAIRN_SYNC_RETRY": "0.1"]
        let cli = CLI()
        #expect(try cli("init", "u1", "--remote", url).status == 0)
        #expect(try cli("put", "users/u1/notes/n1", input: #"{"text": "over https"}"#).status == 0)

        let untrusted = try cli("sync", environment: signedIn)
        #expect(untrusted.status == 1 && untrusted.stderr.contains("certificate is not trusted"), "\(untrusted.stderr)")
        #expect(untrusted.stderr.contains("GIT_SSL_CAINFO"), "the way out: \(untrusted.stderr)")
        let notACertificate = folder.path + "/not-a-certificate.pem"
        try "not a certificate\n".write(toFile: notACertificate, atomically: true, encoding: .utf8)
        let unreadable = try cli("sync", environment: signedIn.merging(["GIT_SSL_CAINFO": notACertificate]) { $1 })
        #expect(unreadable.status == 1, "\(unreadable.stderr)")
        #expect(unreadable.stderr.split(separator: "\n").count == 1, "\(unreadable.stderr)")
        #expect(
            unreadable.stderr.contains("cannot read the CA certificates at \(notACertificate) (GIT_SSL_CAINFO)"), "\(unreadable.stderr)")
        let nothingServed = try runBounded("/usr/bin/git", ["--git-dir", served.folder + "/u1.git", "rev-parse", "--verify", "-q", "main"])
        #expect(nothingServed.stdout.isEmpty, "nothing was pushed")

        let synced = try cli("sync", environment: signedIn.merging(["GIT_SSL_CAINFO": certificate]) { $1 })
        #expect(synced.status == 0, "\(synced.stderr)")
        // The store's own setting, with nothing in the environment (where a machine may name
        // the system's list, which would win, as in git).
        #expect(try cli.git("u1", "config", "http.sslCAInfo", certificate).status == 0)
        #expect(try cli("put", "users/u1/notes/n2", input: #"{"text": "by the store's setting"}"#).status == 0)
        let byConfig = try cli("sync", environment: signedIn.merging(["GIT_SSL_CAINFO": "", "GIT_SSL_CAPATH": ""]) { $1 })
        #expect(byConfig.status == 0, "\(byConfig.stderr)")
        let served2 = try runBounded("/usr/bin/git", ["--git-dir", served.folder + "/u1.git", "show", "main:users/u1/notes/n2.json"])
        // A new device restores it, trusting the certificate through the environment.
        let tablet = CLI()
        let cloned = try tablet("clone", url, "--user", "u1", environment: signedIn.merging(["GIT_SSL_CAINFO": certificate]) { $1 })
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(try tablet("get", "users/u1/notes/n1").stdout.contains("over https"))
        #expect(served2.stdout.contains("by the store's setting"), "\(served2.stderr)")
    }
}
