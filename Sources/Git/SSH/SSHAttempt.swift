/// What one connection's SSH authentication did: how the remote was reached, the keys offered
/// in order (when the server took one, the last), and why the agent did not sign, if it did not.
public struct SSHAttempt: Sendable, Hashable {
    public let access: SSHAccess
    public let offered: [SSHKeyOffer]
    public let signingFailure: String?

    public init(access: SSHAccess, offered: [SSHKeyOffer], signingFailure: String?) {
        self.access = access
        self.offered = offered
        self.signingFailure = signingFailure
    }
}
