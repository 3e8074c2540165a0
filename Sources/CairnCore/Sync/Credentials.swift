import Git

/// A user name and password for a remote (HTTP basic authentication). An SSH remote is
/// offered keys instead, chosen as ssh chooses them.
public struct Credentials: Sendable, Hashable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The same, as the Git module hands them to libgit2.
    var git: Git.Credentials {
        Git.Credentials(username: username, password: password)
    }
}
