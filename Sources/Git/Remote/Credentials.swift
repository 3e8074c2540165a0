/// What a remote may ask for: a user name and password (HTTP basic authentication). An SSH
/// remote is offered keys instead, chosen as ssh chooses them (``SSHAccess``).
public struct Credentials: Sendable, Hashable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
