import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What an operator runs beside the server: Debian's Prometheus scraping `/metrics` on the
/// private address (requests by route and status, token refusals by reason, pushes accepted
/// and refused by rule, the backend's and the hooks' times, repositories made, backends
/// running), and nginx in front, asking `cairn server auth` for each request.
@Suite(.serialized, .historiesVerified) struct AnOperatorWatchesAndFrontsTheServerTests {
    let folder = TemporaryFolder("cairn-front-operator")
    let provider: IdentityProvider
    init() throws { provider = try IdentityProvider(project: "exam-app") }

    @Test func prometheusScrapesWhatTheServerCounts() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider, arguments: ["--schema", "life-in-uk"])
        defer { served.stop() }
        let token = try provider.token(for: "u1")
        let home = folder.path + "/phone"
        let environment = ["CAIRN_TOKEN": token, "CAIRN_SYNC_RETRY": "none"]
        #expect(
            try runBounded(CLI.executable, ["--home", home, "init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1")]).status
                == 0)
        #expect(try runBounded(CLI.executable, ["--home", home, "sync"], environment: environment, limit: 60).status == 0)
        // An expired token, and a push with plain git that the hook refuses by the schema.
        let expired = try provider.token(provider.claims("u1", changes: ["exp": Int(Date().timeIntervalSince1970) - 600]))
        _ = try runBounded(
            "/usr/bin/curl", ["-s", "-u", "u1:" + expired, "http://127.0.0.1:\(served.port)/git/u1.git/info/refs?service=git-upload-pack"])
        let store = home + "/u1"
        try FileManager.default.createDirectory(atPath: store + "/users/u1/examAttempts", withIntermediateDirectories: true)
        try #"{"attemptId":"a1","examId":"practice-1","score":150,"status":"passed"}"#.write(
            toFile: store + "/users/u1/examAttempts/a1.json", atomically: true, encoding: .utf8)
        _ = try runBounded("/usr/bin/git", ["-C", store, "add", "-A"])
        _ = try runBounded("/usr/bin/git", ["-C", store, "commit", "-qm", "by hand"])
        HistoriesVerified.exemptHead(of: store, because: "an attempt over the maximum committed with plain git, for the hook to refuse")
        let helper = folder.path + "/helper.sh"
        try "#!/bin/sh\necho username=u1\necho password=\(token)\n".write(toFile: helper, atomically: true, encoding: .utf8)
        #expect(chmod(helper, 0o700) == 0)
        let refused = try runBounded("/usr/bin/git", ["-C", store, "-c", "credential.helper=" + helper, "push", "origin", "main"])
        #expect(refused.status != 0 && refused.stderr.contains("breaks its schema"), "\(refused.stderr)")

        let prometheus = try PrometheusServer(scraping: "127.0.0.1:\(served.metricsPort)")
        let checks: [(String, (Double) -> Bool)] = [
            (#"cairn_requests_total{route="receive-pack",status="200"}"#, { $0 >= 2 }),
            (#"cairn_requests_total{route="info-refs",status="401"}"#, { $0 >= 2 }),
            (#"cairn_token_refusals_total{reason="expired"}"#, { $0 == 1 }),
            (#"cairn_token_refusals_total{reason="missing"}"#, { $0 >= 1 }),
            (#"cairn_pushes_total{result="accepted"}"#, { $0 == 1 }),
            (#"cairn_pushes_total{result="refused",rule="schema"}"#, { $0 == 1 }),
            (#"cairn_backend_seconds_count"#, { $0 >= 4 }),
            (#"cairn_hook_seconds_count{hook="pre-receive"}"#, { $0 == 2 }),
            (#"cairn_repositories_provisioned_total"#, { $0 == 1 }),
            (#"cairn_backends_running"#, { $0 == 0 }),
        ]
        for (query, holds) in checks {
            let value = try prometheus.wait(for: query, until: holds)
            #expect(value.map(holds) == true, "\(query) = \(String(describing: value))")
        }
        // The accepted push left no asset behind, none being stored: its post-receive hook
        // started no tool, so it reported nothing (in the scrape that holds both pushes).
        #expect(try prometheus.value(#"cairn_hook_seconds_count{hook="pre-receive"}"#) == 2)
        #expect(try prometheus.value(#"cairn_hook_seconds_count{hook="post-receive"}"#) == nil)
        // /healthz beside it; neither on the repositories' address.
        #expect(try runBounded("/usr/bin/curl", ["-s", "http://127.0.0.1:\(served.metricsPort)/healthz"]).stdout == "ok\n")
        let atThePublicAddress = try runBounded(
            "/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(served.port)/metrics"]
        ).stdout
        #expect(atThePublicAddress == "404")
    }

    /// nginx keeps TLS and rate limits in front; Cairn checks the tokens and makes the
    /// repositories (`cairn server auth`), and nginx runs git's backend with the user Cairn
    /// named: the configuration CairnCore.docc, TheServer shows.
    @Test func nginxAsksCairnForEachRequest() throws {
        let root = folder.path + "/server"
        let authorizer = try ServedFront(folder: root, provider: provider, role: "auth")
        defer { authorizer.stop() }
        let nginx = try NginxGitServer(root: root, authorizer: "http://127.0.0.1:\(authorizer.port)")
        defer { nginx.stop() }
        let token = try provider.token(for: "u1")
        let url = "http://u1@127.0.0.1:\(nginx.port)/git/u1.git"
        let environment = ["CAIRN_TOKEN": token, "CAIRN_SYNC_RETRY": "none"]
        let (phone, tablet) = (folder.path + "/phone", folder.path + "/tablet")
        #expect(try runBounded(CLI.executable, ["--home", phone, "init", "u1", "--remote", url]).status == 0)
        #expect(try runBounded(CLI.executable, ["--home", phone, "put", "users/u1/notes/n1"], input: #"{"n": 1}"#).status == 0)
        let synced = try runBounded(CLI.executable, ["--home", phone, "sync"], environment: environment, limit: 60)
        #expect(synced.status == 0, "\(synced.stderr)\n\(nginx.errorLog)\n\(authorizer.log)")
        #expect(FileManager.default.fileExists(atPath: root + "/u1.git/hooks/pre-receive"), "made by the first request")
        let cloned = try runBounded(CLI.executable, ["--home", tablet, "clone", url], environment: environment, limit: 60)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(FileManager.default.fileExists(atPath: tablet + "/u1/users/u1/notes/n1.json"))
        // Refusals come back as the authorizer gave them: 401 with the challenge, 403.
        func status(_ path: String, _ credentials: String?) throws -> String {
            try runBounded(
                "/usr/bin/curl",
                ["-s", "-o", "/dev/null", "-w", "%{http_code}"] + (credentials.map { ["-u", $0] } ?? [])
                    + ["http://127.0.0.1:\(nginx.port)" + path]
            ).stdout
        }
        #expect(try status("/git/u1.git/info/refs?service=git-upload-pack", nil) == "401")
        #expect(
            try status("/git/u1.git/info/refs?service=git-upload-pack", "u1:" + (try provider.token(for: "u1", ["--forge", "tampered"])))
                == "401")
        #expect(try status("/git/u2.git/info/refs?service=git-upload-pack", "u1:" + token) == "403")
        #expect(!FileManager.default.fileExists(atPath: root + "/u2.git"))
        let anonymous = try provider.token(for: "anon-1", provider: "anonymous")
        #expect(try status("/git/anon-1.git/info/refs?service=git-receive-pack", "anon-1:" + anonymous) == "403")
        #expect(authorizer.requestLines.contains { $0.contains("reason=signature") && $0.contains("status=401") }, "\(authorizer.log)")
    }
}
