#if canImport(Glibc)
import Glibc
#endif

/// Signs for libssh2 with one key of an ssh-agent: the payload of a
/// `git_credential_ssh_custom`, so that the server is offered that key alone.
final class SSHSigner {
    let agent: SSHAgent
    let key: SSHPublicKey
    /// The session to tell when the agent does not sign (not retained: it owns the signer).
    unowned let session: RemoteSession

    init(agent: SSHAgent, key: SSHPublicKey, session: RemoteSession) {
        self.agent = agent
        self.key = key
        self.session = session
    }

    /// libssh2's signing callback: the agent's signature of `data`, in a buffer libssh2 frees
    /// (`malloc`, libssh2's default allocator, which libgit2 keeps); 0, or -1 when the agent
    /// did not sign.
    func sign(
        _ data: [UInt8], into signature: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length: UnsafeMutablePointer<Int>
    ) -> Int32 {
        do {
            let bytes = try agent.sign(data, with: key)
            guard let buffer = malloc(max(bytes.count, 1))?.assumingMemoryBound(to: UInt8.self) else { return -1 }
            buffer.initialize(from: bytes, count: bytes.count)
            signature.pointee = buffer
            length.pointee = bytes.count
            return 0
        } catch {
            session.signingFailure = error.description
            return -1
        }
    }
}
