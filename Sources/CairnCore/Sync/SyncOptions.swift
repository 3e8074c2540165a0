import CairnSystem
import Git

/// How a sync behaves: its retries, its credentials, and who hears about its progress.
public struct SyncOptions: Sendable {
    /// Pauses before trying again after a network failure.
    public var retry: RetrySchedule
    /// How many times to fetch, merge and push in all when another device pushed first.
    public var pushAttempts: Int
    /// How long, in seconds, a connection to the remote may make no progress (connecting, or
    /// waiting to read or to write) before the try fails as a network failure, which the
    /// retry schedule then handles; 0 waits without limit. Default 30. Holds for HTTP(S);
    /// over SSH only while connecting.
    public var networkTimeout: Double
    /// Credentials to offer instead of those of the URL or the store's ``Configuration``.
    public var credentials: Credentials?
    /// The ID token to present over HTTP(S), with the store's user ID as the user name, when
    /// no ``credentials`` are given (see ``TokenProvider``).
    public var token: TokenProvider?
    /// Called as objects arrive or leave.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Called before each pause of the retry schedule: the failure, the pause in seconds, and
    /// which retry comes next (1, 2, …).
    public var willRetry: (@Sendable (CairnError, Double, Int) -> Void)?
    /// Pauses for the given seconds (replaceable so tests run without waiting).
    public var sleep: @Sendable (Double) -> Void

    public init(
        retry: RetrySchedule = .standard, pushAttempts: Int = 6,
        networkTimeout: Double = SyncOptions.standardNetworkTimeout,
        credentials: Credentials? = nil,
        token: TokenProvider? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        willRetry: (@Sendable (CairnError, Double, Int) -> Void)? = nil,
        sleep: @escaping @Sendable (Double) -> Void = SyncOptions.sleepForReal
    ) {
        self.retry = retry
        self.pushAttempts = max(1, pushAttempts)
        self.networkTimeout = networkTimeout
        self.credentials = credentials
        self.token = token
        self.progress = progress
        self.willRetry = willRetry
        self.sleep = sleep
    }

    /// 30 s.
    public static let standardNetworkTimeout: Double = 30

    /// Blocks the calling thread for `seconds`.
    public static let sleepForReal: @Sendable (Double) -> Void = { seconds in
        Syscalls.sleep(seconds: seconds)
    }
}
