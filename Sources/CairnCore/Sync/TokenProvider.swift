import Dispatch
import Synchronization

/// Where a sync gets the ID token it presents to a server that takes tokens (`cairn server
/// run`, or any server behind nginx's `auth_request`): the app's identity provider, as in
/// `TokenProvider { fresh in try await auth.currentUser!.getIDToken(forcingRefresh: fresh) }`.
///
/// The token goes as the HTTP password, with the store's user ID as the user name, from the
/// first request (no request is answered 401 only to be made again). It is
/// asked for before each sync (and clone, and download of content), and once more with
/// `fresh` set after the server refused it as not valid (an expired token): then the sync
/// runs again, once. The token is never written anywhere: not in the store, its
/// configuration, its log, or an error's message.
public struct TokenProvider: Sendable {
    /// Gives a token; `fresh`: one newer than the last (the last was refused).
    let provide: @Sendable (_ fresh: Bool) async throws -> String

    public init(_ provide: @escaping @Sendable (_ fresh: Bool) async throws -> String) {
        self.provide = provide
    }

    /// A provider that always gives `token` (a token set in the environment).
    public static func fixed(_ token: String) -> TokenProvider {
        TokenProvider { _ in token }
    }

    /// The token, waiting for the provider on the calling thread (a sync runs on a thread of
    /// its own, never on Swift's cooperative pool). A provider that fails, or gives nothing,
    /// is one line.
    func token(fresh: Bool) throws(CairnError) -> String {
        let answer = Mutex<Result<String, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<String, any Error>
            do {
                result = .success(try await provide(fresh))
            } catch {
                result = .failure(error)
            }
            answer.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch answer.withLock({ $0 })! {
        case .success(let token):
            let trimmed = String(token.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            guard !trimmed.isEmpty else {
                throw CairnError(.authentication, "the token provider gave no token", remedy: .giveCredentials)
            }
            return trimmed
        case .failure(let error as CairnError):
            throw error
        case .failure(let error):
            throw CairnError(.authentication, "the token provider failed: \(error)", remedy: .giveCredentials)
        }
    }
}

extension SyncOptions {
    /// Runs `body` with the credentials to present to `remote` as user `uid`: the options'
    /// own, else a token of ``token`` with `uid` as the user name, else the URL's or the
    /// configuration's. When a token was presented and refused as not authenticated, a fresh
    /// one is asked for and `body` runs once more.
    func presentingCredentials<T>(
        to remote: RemoteURL, as uid: String, configuration: Configuration,
        _ body: (Credentials?) throws(CairnError) -> T
    ) throws(CairnError) -> T {
        guard credentials == nil, let token, remote.transport == .http else {
            return try body(credentials ?? remote.credentials(fallingBackOn: configuration))
        }
        do {
            return try body(Credentials(username: uid, password: try token.token(fresh: false), sentFirst: true))
        } catch  where error.code == .authentication && error.remedy == .checkCredentials {
            return try body(Credentials(username: uid, password: try token.token(fresh: true), sentFirst: true))
        }
    }
}
