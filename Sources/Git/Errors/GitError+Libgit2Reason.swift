import CGit2

#if canImport(Glibc)
import Glibc
#endif

extension GitError.Reason {
    /// What libgit2 1.5.1 tells only in its message, read here once, from the forms its source
    /// writes:
    ///
    /// - `GIT_ERROR_OS`: `git_error_set` ends the message with `": "` and `strerror(errno)`
    ///   (`git_error_vset`, src/libgit2/errors.c), then clears `errno` → ``system(errno:)``.
    ///   Inside a fetch, push or connect, `failed to resolve path '…': No such file or
    ///   directory` (`git_fs_path_prettify`, src/util/fs_path.c) is the remote's path →
    ///   ``repositoryNotFound(serverSaid:)``.
    /// - `GIT_ERROR_REPOSITORY`: `could not find repository from '…'` (`find_repo`,
    ///   src/libgit2/repository.c) → ``repositoryNotFound(serverSaid:)``.
    /// - `GIT_ERROR_HTTP` (`handle_response` and the replay loops, src/libgit2/transports/http.c):
    ///   `unexpected http status code: N` → ``httpStatus(_:)``; `unexpected authentication
    ///   failure` → a refusal; `too many redirects or authentication replays` →
    ///   ``AuthenticationFailure/tooManyRounds``.
    /// - `GIT_ERROR_SSH` (src/libgit2/transports/ssh.c): with `GIT_EEOF`, the server's stderr
    ///   as it is (`ssh_stream_read`), read as a denial, a missing repository or another
    ///   refusal; `Failed to authenticate SSH session: …` (`_git_ssh_authenticate_session`) →
    ///   ``AuthenticationFailure/libssh2(said:keyFile:)``; `invalid or unknown remote ssh
    ///   hostkey` (`check_certificate`, `GIT_ECERTIFICATE`) and libssh2's failures to get or
    ///   verify the host key (`failed to retrieve hostkey: …`, `unable to get the host key`,
    ///   libssh2's `… hostkey …`) → ``hostKeyNotTrusted``.
    /// - `GIT_ERROR_NET`: `user canceled hostkey check` → ``hostKeyNotTrusted``.
    /// - `GIT_ERROR_SSL` with `GIT_ECERTIFICATE`: `the SSL certificate is invalid: …`, then
    ///   mbedTLS's verification report, a line per failed check (`verify_server_cert`,
    ///   src/libgit2/streams/mbedtls.c) → ``certificateNotTrusted(said:)``.
    ///
    /// Then the code alone: `GIT_EAUTH` is a refused authentication, `GIT_ENONFASTFORWARD` a
    /// push behind the remote (`cannot push because a reference … contains commits that are
    /// not present locally.`, src/libgit2/push.c). Nil when none of these fits.
    init?(libgit2Message message: String?, category: Int32, code: GitError.Code, function: String) {
        let text = message ?? ""
        switch category {
        case Int32(GIT_ERROR_OS.rawValue):
            if let number = Self.errno(ending: text) {
                if text.hasPrefix("failed to resolve path '"), number == ENOENT || number == ENOTDIR,
                    ["git_remote_fetch", "git_remote_push", "git_remote_connect"].contains(function)
                {
                    self = .repositoryNotFound(serverSaid: nil)
                } else {
                    self = .system(errno: number)
                }
                return
            }
        case Int32(GIT_ERROR_REPOSITORY.rawValue) where text.hasPrefix("could not find repository from '"):
            self = .repositoryNotFound(serverSaid: nil)
            return
        case Int32(GIT_ERROR_HTTP.rawValue):
            let statusPrefix = "unexpected http status code: "
            if text.hasPrefix(statusPrefix), let status = Int(text.dropFirst(statusPrefix.count)) {
                self = .httpStatus(status)
                return
            }
            if text == "too many redirects or authentication replays" {
                self = .authentication(.tooManyRounds)
                return
            }
        case Int32(GIT_ERROR_SSH.rawValue):
            if code == .endOfFile {
                guard let said = Self.serverSaid(text) else { return nil }
                self = Self.refusal(said)
                return
            }
            let libssh2Prefix = "Failed to authenticate SSH session: "
            if text.hasPrefix(libssh2Prefix) {
                self = .authentication(.libssh2(said: String(text.dropFirst(libssh2Prefix.count)), keyFile: nil))
                return
            }
            if code == .certificate || text.contains("hostkey") || text.contains("host key") {
                self = .hostKeyNotTrusted
                return
            }
        case Int32(GIT_ERROR_SSL.rawValue) where code == .certificate:
            let prefix = "the SSL certificate is invalid: "
            let report = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
            self = .certificateNotTrusted(
                said: report.split(whereSeparator: \.isNewline)
                    .map { String($0.drop { $0 == " " }) }.filter { !$0.isEmpty }.joined(separator: "; "))
            return
        case Int32(GIT_ERROR_NET.rawValue) where text == "user canceled hostkey check":
            self = .hostKeyNotTrusted
            return
        default:
            break
        }
        switch code {
        case .auth: self = .authentication(.refused)
        case .nonFastForward: self = .nonFastForward
        default: return nil
        }
    }

    /// What a refused reference's status means (`push_update_reference`): the words of git's
    /// receive-pack and send-pack for a branch that moved or was locked by another push
    /// (`non-fast-forward`, `fetch first`, `stale info`, `failed to lock`, `cannot lock ref`,
    /// `failed to update ref`) → ``nonFastForward``; for a path remote, which libgit2 writes
    /// itself, its failure's message (`local_push`, src/libgit2/transports/local.c), whose
    /// `strerror` ending → ``system(errno:)``. Nil for the server's own rules (a hook that
    /// declined).
    init?(pushStatus status: String) {
        let lowered = status.lowercased()
        if ["non-fast-forward", "fetch first", "stale info", "failed to lock", "cannot lock", "failed to update ref"]
            .contains(where: lowered.contains)
        {
            self = .nonFastForward
        } else if let number = Self.errno(ending: status) {
            self = .system(errno: number)
        } else {
            return nil
        }
    }

    /// The server's stderr as one line: its lines trimmed and joined by spaces; nil when it
    /// wrote only blanks.
    static func serverSaid(_ text: String) -> String? {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let said = text.split(whereSeparator: \.isNewline)
            .compactMap { line -> Substring? in
                guard let first = line.firstIndex(where: { !isSpace($0) }), let last = line.lastIndex(where: { !isSpace($0) }) else {
                    return nil
                }
                return line[first...last]
            }
            .joined(separator: " ")
        return said.isEmpty ? nil : said
    }

    /// What a server's words instead of git's protocol mean: gitolite's `DENIED`, sshd's or a
    /// forced command's denial; git's `does not appear to be a git repository` or another
    /// missing path; else a refusal of its own.
    static func refusal(_ said: String) -> GitError.Reason {
        let lowered = said.lowercased()
        if said.contains("DENIED") || ["permission denied", "access denied", "not allowed"].contains(where: lowered.contains) {
            return .accessDenied(serverSaid: said)
        }
        if ["does not appear to be a git repository", "does not exist", "not found", "no such"].contains(where: lowered.contains) {
            return .repositoryNotFound(serverSaid: said)
        }
        return .serverRefused(serverSaid: said)
    }

    /// The `errno` whose `strerror` text ends `message` after `": "` (or is all of it), as
    /// `git_error_vset` writes it.
    static func errno(ending message: String) -> Int32? {
        if let number = errnoByText[message] { return number }
        // One text holds ": " itself (ETOOMANYREFS: "Too many references: cannot splice").
        for separator in message.ranges(of: ": ").reversed().prefix(2) {
            if let number = errnoByText[String(message[separator.upperBound...])] { return number }
        }
        return nil
    }

    /// Every `errno` value by its `strerror` text.
    private static let errnoByText: [String: Int32] = {
        var table: [String: Int32] = [:]
        for number in Int32(1)..<Int32(256) {
            let text = String(cString: strerror(number))
            if !text.hasPrefix("Unknown error"), table[text] == nil { table[text] = number }
        }
        return table
    }()
}
