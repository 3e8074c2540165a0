import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// How a device gets its token: `CAIRN_TOKEN`, a command kept in the store that prints one
/// (asked again, with `CAIRN_TOKEN_FRESH=1`, when the server refuses the last), or the app's
/// own provider through the library (`{ await auth.idToken() }`) — and the token is never
/// written: not in the store, its configuration, its log, nor an error's line.
@Suite(.serialized, .historiesVerified) struct ATokenIsAskedForAndNeverKeptTests {
    let folder = TemporaryFolder("cairn-front-tokens")
    let provider: IdentityProvider
    init() throws { provider = try IdentityProvider(project: "exam-app") }

    /// Every file under `path` that holds `text`.
    func files(under path: String, holding text: String) -> [String] {
        var found: [String] = []
        let needle = Data(text.utf8)
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        while let name = walker.nextObject() as? String {
            if let data = FileManager.default.contents(atPath: path + "/" + name), data.range(of: needle) != nil { found.append(name) }
        }
        return found
    }

    @Test func aTokenCommandIsAskedAgainForAFreshTokenAndNoTokenIsKept() throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { served.stop() }
        let expired = try provider.token(provider.claims("u1", changes: ["exp": Int(Date().timeIntervalSince1970) - 600]))
        let fresh = try provider.token(for: "u1")
        try expired.write(toFile: folder.path + "/expired", atomically: true, encoding: .utf8)
        try fresh.write(toFile: folder.path + "/fresh", atomically: true, encoding: .utf8)
        // What an app's helper does: the cached token, or a new one when asked for a fresh one.
        let command =
            "echo asked >> '\(folder.path)/asks'; if [ \"$CAIRN_TOKEN_FRESH\" = 1 ]; then cat '\(folder.path)/fresh'; else cat '\(folder.path)/expired'; fi"
        let home = folder.path + "/phone"
        func cairn(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
            try runBounded(
                CLI.executable, ["--home", home] + arguments, input: input,
                environment: ["CAIRN_SYNC_RETRY": "none", "CAIRN_LOG": "debug"].merging(environment) { $1 },
                removing: ["CAIRN_TOKEN"], limit: 60)
        }
        #expect(try cairn(["init", "u1"]).status == 0)
        let set = try cairn(["remote", "set", served.url("u1"), "--token-command", command])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try cairn(["put", "users/u1/notes/n1"], input: #"{"n": 1}"#).status == 0)
        let synced = try cairn(["sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let asks = (try? String(contentsOfFile: folder.path + "/asks", encoding: .utf8)) ?? ""
        #expect(asks == "asked\nasked\n", "once, then once more for a fresh token: \(asks)")
        #expect(served.requestLines.contains { $0.contains("reason=expired") })

        // A new device, cloning with the command: the command is kept, never a token.
        let clone = try runBounded(
            CLI.executable, ["--home", folder.path + "/tablet", "clone", served.url("u1"), "--token-command", command],
            environment: ["CAIRN_SYNC_RETRY": "none"], removing: ["CAIRN_TOKEN"], limit: 60)
        #expect(clone.status == 0, "\(clone.stderr)")
        #expect(
            try runProcess("/usr/bin/git", ["-C", folder.path + "/tablet/u1", "config", "cairn.tokenCommand"]).stdout == command + "\n")

        // A command that fails is one line, naming the command and what it said.
        #expect(try cairn(["remote", "set", served.url("u1"), "--token-command", "echo no session >&2; exit 3"]).status == 0)
        let failed = try cairn(["sync"])
        #expect(failed.status == 1)
        #expect(
            failed.stderr.split(separator: "\n").last?.hasPrefix(
                "cairn: the token command \"echo no session >&2; exit 3\" failed (exit status 3): no session") == true,
            "\(failed.stderr)")

        // A token refused for good (another project's) is one line without it.
        let foreign = try provider.token(provider.claims("u1", changes: ["aud": "other-app"]))
        let refused = try cairn(["sync"], environment: ["CAIRN_TOKEN": foreign])
        #expect(refused.status == 1 && refused.stderr.contains("refused the credentials of u1"), "\(refused.stderr)")
        for text in [synced.stdout + synced.stderr, clone.stdout + clone.stderr, refused.stdout + refused.stderr] {
            for token in [expired, fresh, foreign] { #expect(!text.contains(token.suffix(40)), "a token in the output") }
        }
        for token in [expired, fresh, foreign] {
            #expect(files(under: home, holding: String(token.suffix(40))).isEmpty, "a token in the store")
            #expect(files(under: folder.path + "/tablet", holding: String(token.suffix(40))).isEmpty, "a token in the clone")
            #expect(!served.log.contains(token.suffix(40)), "a token in the server's log")
        }
    }

    /// The library: the app's own provider, asked before each sync and, fresh, once more after
    /// the server refused the last token.
    @Test func theAppsProviderIsAskedBeforeEachSyncAndAgainAfterARefusal() async throws {
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { served.stop() }
        let expired = try provider.token(provider.claims("u1", changes: ["exp": Int(Date().timeIntervalSince1970) - 600]))
        let fresh = try provider.token(for: "u1")
        let asks = Mutex<[Bool]>([])
        // An app's Firebase Auth: the cached token first, a refreshed one when forced.
        let token = TokenProvider { forceRefresh in
            asks.withLock { $0.append(forceRefresh) }
            return forceRefresh ? fresh : expired
        }
        let home = Home(root: folder.path + "/app")
        try home.createStore("u1").setRemote(RemoteURL(served.url("u1")))
        let app = try ProgressStore(home: home, user: "u1")
        try app.put(.object(["n": .integer(1)]), at: "users/u1/notes/n1")
        let first = try await app.sync(SyncOptions(retry: .none, token: token))
        #expect(first.pushedCommits > 0)
        #expect(asks.withLock { $0 } == [false, true])
        try app.put(.object(["n": .integer(2)]), at: "users/u1/notes/n1")
        _ = try await app.sync(SyncOptions(retry: .none, token: token))
        #expect(asks.withLock { $0 } == [false, true, false, true], "asked before each sync")
        // A provider that fails is the sync's failure, in one line.
        do {
            _ = try await app.sync(SyncOptions(retry: .none, token: TokenProvider { _ in throw CancellationError() }))
            Issue.record("a sync without a token went through")
        } catch let error as CairnError {
            #expect(error.code == .authentication && error.message.hasPrefix("the token provider failed"), "\(error.message)")
        }
    }
}
