import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What `cairn server run` refuses, each with 401 or 403 and one log line naming the reason,
/// none of it making a repository or writing anything: forged tokens, a token of another user
/// or for another path, an anonymous account's push; and the bounds — a request body over the
/// limit, all backends busy — and a start that cannot serve.
@Suite(.serialized, .historiesVerified) struct TheGateRefusesWhatItMustTests {
    let folder = TemporaryFolder("cairn-front-gate")
    let provider: IdentityProvider
    init() throws { provider = try IdentityProvider(project: "exam-app") }

    /// A request with curl: the status, and the body's one line.
    func ask(
        _ served: ServedFront, _ path: String, token: String?, user: String? = nil, method: String = "GET",
        bearer: Bool = false, body: String? = nil
    ) throws -> (status: Int, line: String) {
        var arguments = ["-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "20", "-X", method, "--path-as-is"]
        if let token {
            arguments += bearer ? ["-H", "Authorization: Bearer " + token] : ["-u", (user ?? "") + ":" + token]
        }
        if let body { arguments += ["-H", "Content-Type: application/x-git-receive-pack-request", "--data-binary", body] }
        let result = try runBounded("/usr/bin/curl", arguments + ["http://127.0.0.1:\(served.port)" + path])
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        // The body's line, without the newline that ends it.
        if lines.last == "" { lines.removeLast() }
        return (status, lines.joined(separator: "\n"))
    }

    @Test func forgedTokensAndForeignPathsAreRefusedAndMakeNothing() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { served.stop() }
        let now = Int(Date().timeIntervalSince1970)
        let fetch = "/git/victim.git/info/refs?service=git-upload-pack"
        let push = "/git/victim.git/info/refs?service=git-receive-pack"
        var cases: [(what: String, path: String, token: String?, user: String?, status: Int, reason: String)] = [
            ("no token", fetch, nil, nil, 401, "missing"),
            ("alg none", fetch, try provider.token(for: "victim", ["--forge", "none"]), "victim", 401, "algorithm"),
            ("HS256 with the public key", fetch, try provider.token(for: "victim", ["--forge", "hs256"]), "victim", 401, "algorithm"),
            ("an unknown kid", fetch, try provider.token(for: "victim", ["--key", "stranger"]), "victim", 401, "unknown-key"),
            ("a kid holding a path", fetch, try provider.token(for: "victim", ["--kid", "../jwks.json"]), "victim", 401, "key-id"),
            ("a kid holding a URL", fetch, try provider.token(for: "victim", ["--kid", "http://127.0.0.1/jwks"]), "victim", 401, "key-id"),
            ("another payload", fetch, try provider.token(for: "victim", ["--forge", "tampered"]), "victim", 401, "signature"),
            ("expired", fetch, try provider.token(provider.claims("victim", changes: ["exp": now - 300])), "victim", 401, "expired"),
            (
                "nbf ahead", fetch, try provider.token(provider.claims("victim", changes: ["nbf": now + 3600])), "victim", 401,
                "not-yet-valid"
            ),
            (
                "iat ahead", fetch, try provider.token(provider.claims("victim", changes: ["iat": now + 86_400])), "victim", 401,
                "issued-in-future"
            ),
            (
                "another issuer", fetch, try provider.token(provider.claims("victim", changes: ["iss": "https://evil.example"])), "victim",
                401, "issuer"
            ),
            (
                "another audience", fetch, try provider.token(provider.claims("victim", changes: ["aud": "other"])), "victim", 401,
                "audience"
            ),
            (
                "audiences without ours", fetch, try provider.token(provider.claims("victim", changes: ["aud": ["x", "y"]])), "victim", 401,
                "audience"
            ),
            ("no uid claim", fetch, try provider.token(provider.claims("victim", changes: ["sub": NSNull()])), "victim", 401, "uid"),
            ("over 16 KB", fetch, try provider.token(for: "victim", ["--forge", "big"]), "victim", 401, "too-large"),
            ("malformed base64", fetch, try provider.token(for: "victim", ["--forge", "base64"]), "victim", 401, "malformed"),
            (
                "a key twice in the header", fetch, try provider.token(for: "victim", ["--forge", "duplicate-header"]), "victim", 401,
                "duplicate-key"
            ),
            (
                "a key twice in the payload", fetch, try provider.token(for: "victim", ["--forge", "duplicate-payload"]), "victim", 401,
                "duplicate-key"
            ),
        ]
        let u1 = try provider.token(for: "u1")
        cases += [
            ("u1's token, fetching victim's", fetch, u1, "u1", 403, "other-user"),
            ("u1's token, pushing to victim's", push, u1, "u1", 403, "other-user"),
            ("u1's token, pushing a pack to victim's", "/git/victim.git/git-receive-pack", u1, "u1", 403, "other-user"),
            ("u1's token with victim's user name", fetch, u1, "victim", 403, "other-user"),
            ("..", "/git/../u1.git/info/refs?service=git-upload-pack", u1, "u1", 403, "path"),
            ("an encoded ..", "/git/%2E%2E.git/info/refs?service=git-upload-pack", u1, "u1", 403, "path"),
            ("an encoded slash", "/git/u1%2F..%2Fvictim.git/info/refs?service=git-upload-pack", u1, "u1", 403, "path"),
            ("a uid Cairn refuses", "/git/__u1__.git/info/refs?service=git-upload-pack", u1, "u1", 403, "path"),
            ("a path git does not ask for", "/git/u1.git/config", u1, "u1", 403, "path"),
        ]
        for entry in cases {
            let before = served.requestLines.count
            let answer = try ask(served, entry.path, token: entry.token, user: entry.user)
            #expect(answer.status == entry.status, "\(entry.what): \(answer.status) \(answer.line)")
            #expect(!answer.line.isEmpty && !answer.line.contains("\n"), "\(entry.what): \(answer.line)")
            let logged = served.requestLines.dropFirst(before)
            #expect(logged.count == 1 && logged.first?.contains("reason=\(entry.reason)") == true, "\(entry.what): \(logged)")
            if let token = entry.token { #expect(!served.log.contains(token.suffix(40)), "\(entry.what): the token is in the log") }
        }
        // None of it made a repository, u1's among them.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/server").isEmpty)
        // A bearer token is the same token.
        #expect(try ask(served, "/git/u1.git/info/refs?service=git-upload-pack", token: u1, bearer: true).status == 200)
        let metrics = try served.metrics()
        #expect(metrics.contains(#"cairn_token_refusals_total{reason="duplicate-key"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"cairn_token_refusals_total{reason="other-user"} 4"#), "\(metrics)")
        #expect(metrics.contains(#"cairn_repositories_provisioned_total 1"#), "\(metrics)")
    }

    /// Seed 000 §9.2: an anonymous account pushes nothing unless the operator allows it, and
    /// the server keeps no repository for it; the refusal names the option. Signed in, the
    /// person's account takes the anonymous progress, and pushes it. An anonymous account
    /// whose repository exists (anonymous writes were allowed once) reads it, and no more.
    @Test func anAnonymousAccountPushesOnlyWhereAllowed() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        let anonymous = try provider.token(for: "anon-1", provider: "anonymous")
        let home = folder.path + "/phone"
        func on(_ arguments: String..., token: String, input: String? = nil) throws -> ProcessResult {
            try runBounded(
                CLI.executable, ["--home", home] + arguments, input: input,
                environment: ["CAIRN_TOKEN": token, "CAIRN_SYNC_RETRY": "none"], limit: 60)
        }
        #expect(try on("init", "anon-1", "--remote", served.url("anon-1"), token: anonymous).status == 0)
        #expect(try on("put", "users/anon-1/notes/n1", token: anonymous, input: #"{"text": "before signing in"}"#).status == 0)
        let refused = try on("sync", token: anonymous)
        #expect(refused.status == 1 && refused.stderr.contains("HTTP 403"), "\(refused.stderr)")
        let said =
            "user anon-1 is signed in anonymously and the server keeps no progress of anonymous accounts; sign in, or start the server with --allow-anonymous-writes"
        #expect(try ask(served, "/git/anon-1.git/info/refs?service=git-upload-pack", token: anonymous, user: "anon-1").line == said)
        #expect(served.requestLines.contains { $0.contains("reason=anonymous-write") && $0.contains("status=403") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/server").isEmpty, "no repository for it")

        // The person signs in: their account's store takes the anonymous progress, and syncs.
        let signedIn = try provider.token(for: "u1")
        #expect(try on("init", "u1", "--remote", served.url("u1"), token: signedIn).status == 0)
        let imported = try on("--user", "u1", "import", "anon-1", token: signedIn)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try on("--user", "u1", "sync", token: signedIn).status == 0)
        #expect(try on("--user", "u1", "get", "users/u1/notes/n1", token: signedIn).stdout.contains("before signing in"))
        served.stop()

        // With --allow-anonymous-writes, the anonymous account pushes.
        let open = try ServedFront(folder: folder.path + "/server", provider: provider, arguments: ["--allow-anonymous-writes"])
        #expect(try on("--user", "anon-1", "remote", "set", open.url("anon-1"), token: anonymous).status == 0)
        let allowed = try on("--user", "anon-1", "sync", token: anonymous)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        open.stop()
        // Without it again: the repository made meanwhile is read, and not written.
        let closed = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { closed.stop() }
        #expect(try ask(closed, "/git/anon-1.git/info/refs?service=git-upload-pack", token: anonymous, user: "anon-1").status == 200)
        #expect(
            try ask(closed, "/git/anon-1.git/info/refs?service=git-receive-pack", token: anonymous, user: "anon-1").line
                == "user anon-1 is signed in anonymously and may not push; sign in, or start the server with --allow-anonymous-writes")
    }

    @Test func aBodyOverTheLimitIs413NamingTheOption() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider, arguments: ["--max-body", "1kB"])
        defer { served.stop() }
        let token = try provider.token(for: "u1")
        let answer = try ask(
            served, "/git/u1.git/git-receive-pack", token: token, user: "u1", method: "POST",
            body: String(repeating: "x", count: 5_000))
        #expect(answer.status == 413, "\(answer)")
        #expect(answer.line == "the request is larger than the 1000 bytes this server takes; start it with a larger --max-body")
        // A device whose push is that large is told so, in one line, and nothing moved.
        let home = folder.path + "/phone"
        let environment = ["CAIRN_TOKEN": token, "CAIRN_SYNC_RETRY": "none"]
        #expect(try runBounded(CLI.executable, ["--home", home, "init", "u1", "--remote", served.url("u1")]).status == 0)
        #expect(
            try runBounded(
                CLI.executable, ["--home", home, "put", "users/u1/notes/n1"],
                input: #"{"text": "\#(String(repeating: "word ", count: 600))"}"#
            ).status == 0)
        let pushed = try runBounded(CLI.executable, ["--home", home, "sync"], environment: environment, limit: 60)
        #expect(pushed.status == 1 && pushed.stderr.contains("HTTP 413"), "\(pushed.stderr)")
    }

    /// One backend at once, held by a push whose hook takes two seconds: another device's
    /// request waits its bounded time, gets 503 with Retry-After, and its sync tries again.
    @Test func busyBackendsAnswer503AndADeviceTriesAgain() throws {
        let served = try ServedFront(
            folder: folder.path + "/server", provider: provider, arguments: ["--max-backends", "1", "--queue-timeout", "0.3"])
        defer { served.stop() }
        let token = try provider.token(for: "u1")
        let (phone, tablet) = (folder.path + "/phone", folder.path + "/tablet")
        func cairn(_ home: String, _ arguments: [String], retry: String = "none", input: String? = nil) throws -> ProcessResult {
            try runBounded(
                CLI.executable, ["--home", home] + arguments, input: input,
                environment: ["CAIRN_TOKEN": token, "CAIRN_SYNC_RETRY": retry], limit: 60)
        }
        #expect(try cairn(phone, ["init", "u1", "--remote", served.url("u1")]).status == 0)
        #expect(try cairn(phone, ["sync"]).status == 0)
        #expect(try cairn(tablet, ["clone", served.url("u1")]).status == 0)
        // The hook takes two seconds from now on.
        let hook = folder.path + "/server/u1.git/hooks/pre-receive"
        let marker = folder.path + "/hook-running"
        try FileManager.default.moveItem(atPath: hook, toPath: hook + ".checks")
        try "#!/bin/sh\ntouch '\(marker)'\nsleep 2\nexec '\(hook).checks'\n".write(toFile: hook, atomically: true, encoding: .utf8)
        #expect(chmod(hook, 0o755) == 0)
        #expect(try cairn(phone, ["put", "users/u1/notes/slow"], input: #"{"n": 1}"#).status == 0)
        let slow = ChildProcess()
        slow.executableURL = URL(fileURLWithPath: CLI.executable)
        slow.arguments = ["--home", phone, "sync"]
        slow.environment = ProcessInfo.processInfo.environment.merging(["CAIRN_TOKEN": token, "CAIRN_SYNC_RETRY": "none"]) { $1 }
        slow.standardOutput = FileHandle.nullDevice
        slow.standardError = FileHandle.nullDevice
        try slow.run()
        // The phone's push holds the one backend while its hook runs.
        let deadline = Date() + 20
        while !FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(20_000) }
        let busy = try cairn(tablet, ["sync"])
        #expect(busy.status == 75, "a busy server is a network failure to try again: \(busy.status) \(busy.stderr)")
        #expect(served.requestLines.contains { $0.contains("status=503") && $0.contains("reason=busy") }, "\(served.log)")
        let retried = try cairn(tablet, ["sync"], retry: "1,2,3,4")
        #expect(retried.status == 0, "\(retried.stderr)")
        slow.waitUntilExit()
        #expect(slow.terminationStatus == 0)
        let metrics = try served.metrics()
        #expect(metrics.contains(#"status="503""#), "\(metrics)")
    }

    @Test func aStartThatCannotServeIsOneLine() throws {
        let bad = TemporaryFolder("cairn-front-bad")
        try "{\"keys\": [".write(toFile: bad.path + "/broken.json", atomically: true, encoding: .utf8)
        try #"{"keys": [{"kty": "oct", "kid": "h", "k": "c2VjcmV0"}]}"#.write(
            toFile: bad.path + "/secret.json", atomically: true, encoding: .utf8)
        try "not a folder".write(toFile: bad.path + "/file", atomically: true, encoding: .utf8)
        let base = [
            "server", "run", "--issuer", provider.issuer, "--audience", provider.audience, "--listen", "127.0.0.1:0", "--metrics",
            "127.0.0.1:0",
        ]
        let cases: [([String], String)] = [
            ([bad.path + "/repos", "--jwks", bad.path + "/broken.json"], "is not JSON"),
            ([bad.path + "/repos", "--jwks", bad.path + "/secret.json"], "holds no key to verify ID tokens with"),
            ([bad.path + "/repos", "--jwks", bad.path + "/none.json"], "does not exist"),
            ([bad.path + "/file/repos", "--jwks", provider.keySetFile], "is not a folder, so"),
            (
                [
                    bad.path + "/repos", "--jwks", provider.keySetFile, "--tls-cert", bad.path + "/none.pem", "--tls-key",
                    bad.path + "/none.pem",
                ], "cannot read"
            ),
        ]
        for (arguments, phrase) in cases {
            let result = try runBounded(CLI.executable, base + arguments, limit: 30)
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(
                lines.count == 1 && lines.first?.hasPrefix("cairn: ") == true && lines.first?.contains(phrase) == true,
                "\(arguments): \(result.stderr)")
        }
        let usage = try runBounded(CLI.executable, ["server", "run", bad.path + "/repos", "--issuer", "i"], limit: 30)
        #expect(usage.status == 64 && usage.stderr.contains("--issuer ISS --audience AUD --jwks URL|FILE"), "\(usage.stderr)")
    }
}
