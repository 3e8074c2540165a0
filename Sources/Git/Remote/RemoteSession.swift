import CGit2
import GitFormat

/// The state libgit2's remote callbacks share during one fetch or push: the credentials to
/// offer (once), the SSH keys to offer (one a call, in order), the progress handler, what
/// the server said, and why it failed when a callback saw it (``explain(_:)``).
final class RemoteSession {
    let credentials: Credentials?
    let ssh: SSHAccess?
    let progress: ((TransferProgress) -> Void)?
    var offeredCredentials = false
    var offeredAgent = false
    /// The SSH keys offered so far, in order; when authentication succeeded, the last one is
    /// the key the server took.
    var offeredKeys: [SSHKeyOffer] = []
    /// Why the agent could not sign with a key it listed, if it could not.
    var signingFailure: String?
    /// The signers handed to libgit2 as payloads, kept alive for the session.
    private var signers: [SSHSigner] = []
    var rejections: [String: PushRejection] = [:]
    /// Whether a push found every reference it would set already set so on the remote, and
    /// stopped before sending anything.
    var alreadyOnRemote = false
    var sideband: [UInt8] = []
    /// How authentication failed, when the credentials callback ended it.
    var authenticationFailure: GitError.Reason.AuthenticationFailure?
    /// Whether libgit2 found the SSH server's host key not in `known_hosts` (or another key
    /// there).
    var hostKeyNotTrusted = false

    init(credentials: Credentials?, ssh: SSHAccess? = nil, progress: ((TransferProgress) -> Void)?) {
        self.credentials = credentials
        self.ssh = ssh
        self.progress = progress
    }

    /// What this session's SSH authentication did, for the caller's messages.
    var sshAttempt: SSHAttempt? {
        ssh.map { SSHAttempt(access: $0, offered: offeredKeys, signingFailure: signingFailure) }
    }

    /// Makes the next key of ``ssh`` the credential libgit2 tries (libgit2 calls back for
    /// another while the server refuses); `GIT_EAUTH` with a message once none is left.
    func offerNextKey(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>?, access: SSHAccess) -> Int32 {
        guard offeredKeys.count < access.offers.count else {
            authenticationFailure = offeredKeys.isEmpty ? .nothingToOffer : .refused
            let reason =
                offeredKeys.isEmpty
                ? "no SSH key to offer to \(access.user)@\(access.host)"
                : "\(access.user)@\(access.host) refused every SSH key offered"
            git_error_set_str(Int32(GIT_ERROR_CALLBACK.rawValue), reason)
            return GIT_EAUTH.rawValue
        }
        let offer = access.offers[offeredKeys.count]
        offeredKeys.append(offer)
        switch offer {
        case .file(let path):
            return git_credential_ssh_key_new(out, access.user, nil, path, nil)
        case .agent(let key, _):
            guard let agent = access.agent else { return GIT_EAUTH.rawValue }
            let signer = SSHSigner(agent: agent, key: key, session: self)
            signers.append(signer)
            return key.blob.withUnsafeBufferPointer { blob in
                blob.withMemoryRebound(to: CChar.self) { publicKey in
                    git_credential_ssh_custom_new(
                        out, access.user, publicKey.baseAddress, publicKey.count,
                        { _, signature, length, data, count, abstract in
                            guard let signature, let length, let data, let payload = abstract?.pointee else { return -1 }
                            let signer = Unmanaged<SSHSigner>.fromOpaque(payload).takeUnretainedValue()
                            return signer.sign(Array(UnsafeBufferPointer(start: data, count: count)), into: signature, length: length)
                        }, Unmanaged.passUnretained(signer).toOpaque())
                }
            }
        }
    }

    /// The server's messages, one line each; lines rewritten in place with `\r` (progress
    /// counters) keep only their last state.
    var remoteMessages: [String] {
        String(decoding: sideband, as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" })
            .compactMap { line in line.split(separator: "\r").last.map(String.init) }
            .map { $0.trimmingTrailingSpaces() }
            .filter { !$0.isEmpty }
    }

    /// Fills `callbacks` with this session's handlers. The session must outlive the call
    /// that uses them.
    func install(in callbacks: inout git_remote_callbacks) {
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, _, usernameFromURL, allowed, payload in
            let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
            if allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0, let credentials = session.credentials,
                !session.offeredCredentials
            {
                session.offeredCredentials = true
                return git_credential_userpass_plaintext_new(out, credentials.username, credentials.password)
            }
            if let access = session.ssh {
                if allowed == GIT_CREDENTIAL_USERNAME.rawValue {
                    return git_credential_username_new(out, access.user)
                }
                if allowed & (GIT_CREDENTIAL_SSH_KEY.rawValue | GIT_CREDENTIAL_SSH_CUSTOM.rawValue) != 0 {
                    return session.offerNextKey(out, access: access)
                }
            } else if allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0, !session.offeredAgent {
                session.offeredAgent = true
                let user = usernameFromURL.map { String(cString: $0) } ?? session.credentials?.username ?? "git"
                return git_credential_ssh_key_from_agent(out, user)
            }
            let offered = session.offeredCredentials || session.offeredAgent || !session.offeredKeys.isEmpty
            session.authenticationFailure = offered ? .refused : .nothingToOffer
            let reason =
                offered
                ? "the remote refused the credentials"
                : "the remote asks for credentials and none were given"
            git_error_set_str(Int32(GIT_ERROR_CALLBACK.rawValue), reason)
            return GIT_EAUTH.rawValue
        }
        callbacks.transfer_progress = { stats, payload in
            let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
            if let progress = session.progress, let stats {
                progress(
                    TransferProgress(
                        direction: .receiving, objects: Int(stats.pointee.received_objects),
                        totalObjects: Int(stats.pointee.total_objects), bytes: Int(stats.pointee.received_bytes)))
            }
            return 0
        }
        callbacks.push_transfer_progress = { current, total, bytes, payload in
            let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
            session.progress?(
                TransferProgress(
                    direction: .sending, objects: Int(current),
                    totalObjects: Int(total), bytes: bytes))
            return 0
        }
        callbacks.sideband_progress = { text, length, payload in
            let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
            if let text, length > 0 {
                text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    session.sideband += UnsafeBufferPointer(start: $0, count: Int(length))
                }
            }
            return 0
        }
        // Called with the remote's advertised values before anything is sent: a push whose
        // every reference is already where it would go stops there (libgit2 would send the
        // no-op update and an empty pack, and the server would run its hooks for them).
        callbacks.push_negotiation = { updates, count, payload in
            let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
            guard let updates, count > 0 else { return 0 }
            for position in 0..<count {
                guard let update = updates[position]?.pointee, ObjectID(update.src) == ObjectID(update.dst) else { return 0 }
            }
            session.alreadyOnRemote = true
            git_error_set_str(Int32(GIT_ERROR_CALLBACK.rawValue), "the remote already holds what the push would send")
            return GIT_EUSER.rawValue
        }
        callbacks.push_update_reference = { reference, status, payload in
            let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
            if let reference, let status {
                session.rejections[String(cString: reference)] = PushRejection(status: String(cString: status))
            }
            return 0
        }
        if ssh != nil {
            // libgit2 checks the host key against known_hosts itself and says whether it
            // passed; passing the decision back to it keeps its checks and its message.
            callbacks.certificate_check = { certificate, valid, _, payload in
                let session = Unmanaged<RemoteSession>.fromOpaque(payload!).takeUnretainedValue()
                if valid == 0, certificate?.pointee.cert_type == GIT_CERT_HOSTKEY_LIBSSH2 {
                    session.hostKeyNotTrusted = true
                }
                return GIT_PASSTHROUGH.rawValue
            }
        }
    }

    /// `error`, a failure of the call this session served, with the reason its callbacks saw:
    /// how authentication ended, a host key not trusted, the key file libssh2 could not use
    /// (the key offered last was a file, and libssh2's reason is about a key).
    func explain(_ error: GitError) -> GitError {
        var error = error
        if error.code == .auth, let authenticationFailure {
            error.reason = .authentication(authenticationFailure)
        } else if error.code == .certificate, hostKeyNotTrusted {
            error.reason = .hostKeyNotTrusted
        } else if case .authentication(.libssh2(let said, nil))? = error.reason, case .file(let path)? = offeredKeys.last,
            said.lowercased().contains("key")
        {
            error.reason = .authentication(.libssh2(said: said, keyFile: path))
        }
        return error
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
