/// An SSH setting Cairn cannot use — a line of `~/.ssh/config`, an option of
/// `core.sshCommand`, a key file — with where it is and why, in one line.
public struct SSHConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where and why, such as `/home/me/.ssh/config line 4: Port "ssh" is not a port number`.
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
