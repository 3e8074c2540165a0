import Git

/// A user name and password for a remote (HTTP basic authentication). An SSH remote is
/// offered keys instead, chosen as ssh chooses them.
public struct Credentials: Sendable, Hashable {
    public var username: String
    public var password: String
    /// Whether they go with the first request of a fetch or push, before the server asks:
    /// an ID token, made for the server that takes it (``TokenProvider``). A password waits
    /// to be asked for, as git's does, unless the server asked before.
    public var sentFirst: Bool

    public init(username: String, password: String, sentFirst: Bool = false) {
        self.username = username
        self.password = password
        self.sentFirst = sentFirst
    }

    /// The same, as the Git module hands them to libgit2.
    var git: Git.Credentials {
        Git.Credentials(username: username, password: password)
    }
}
