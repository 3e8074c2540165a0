import Foundation

/// A smart-HTTP git server with a Git LFS server behind the same passwords, on 127.0.0.1 for
/// tests: lighttpd (``GitHTTPServer``) serves the bare repositories `<root>/<uid>.git` and
/// passes `/git/<uid>.git/info/lfs/…`, the LFS endpoint git-lfs derives from the remote's URL,
/// to giftless (``GiftlessServer``). Each user reaches only their own repository and its
/// objects; anonymous requests and wrong passwords get 401. The objects are kept under
/// `<root>/lfs`, a folder per repository (``objectPath(uid:oid:)``).
public final class LFSGitServer: GitServer {
    public let git: GitHTTPServer
    public let lfs: GiftlessServer

    /// Starts giftless, then lighttpd in front of it; `users`: name -> password.
    public init(root: String, users: [String: String]) throws {
        let lfs = try GiftlessServer(storage: root + "/lfs")
        do {
            git = try GitHTTPServer(root: root, users: users, lfsSocket: lfs.socket)
        } catch {
            lfs.stop()
            throw error
        }
        self.lfs = lfs
    }

    deinit {
        stop()
    }

    public var port: Int { git.port }

    /// Stops lighttpd, then giftless, each by its PID. Idempotent; also called from deinit.
    public func stop() {
        git.stop()
        lfs.stop()
    }

    /// lighttpd's log (who was refused), then giftless's.
    public var errorLog: String {
        git.errorLog + "giftless:\n" + lfs.errorLog
    }

    public var failedLogins: Int { git.failedLogins }

    /// `http://127.0.0.1:<port>/git/<uid>.git/info/lfs`: the LFS endpoint of `uid`'s repository.
    public func lfsURL(for uid: String) -> String {
        url(for: uid) + "/info/lfs"
    }

    /// Where the server keeps the object `oid` (SHA-256 in hex) of `uid`'s repository.
    public func objectPath(uid: String, oid: String) -> String {
        lfs.objectPath(uid: uid, oid: oid)
    }
}
