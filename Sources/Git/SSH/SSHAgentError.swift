/// An ssh-agent that could not be reached or did not answer as agents do, in one line.
public struct SSHAgentError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
