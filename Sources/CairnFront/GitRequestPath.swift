import Foundation
import CairnCore
import CairnMerge

/// A request for a user's repository, read from its path: `/git/<uid>.git/<rest>`, the uid
/// percent-decoded and checked by Cairn's ID rules, the rest one of the paths git's smart
/// HTTP asks for. Anything else — `..`, an encoded `/`, a uid Cairn refuses, a path git does
/// not ask for — is not a request for a repository.
struct GitRequestPath: Sendable, Hashable {
    /// The repository's user.
    let uid: String
    /// What follows `<uid>.git/` (`info/refs`, `git-upload-pack`, `git-receive-pack`, …).
    let rest: String

    /// The prefix every repository's path has.
    static let prefix = "/git/"

    /// Reads `path` (the request's path, still percent-encoded); nil, with why, when it is not
    /// a repository's.
    static func read(_ path: String) -> Result<GitRequestPath, NotARepository> {
        guard path.hasPrefix(prefix) else { return .failure(NotARepository(why: "not under \(prefix)")) }
        let segments = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2, segments[0].hasSuffix(".git") else {
            return .failure(NotARepository(why: "not /git/<uid>.git/…"))
        }
        guard let uid = String(segments[0].dropLast(4)).removingPercentEncoding, !uid.contains("/") else {
            return .failure(NotARepository(why: "the repository's name is not a user ID"))
        }
        do {
            try DocumentID.validate(uid, in: uid)
        } catch {
            return .failure(NotARepository(why: "invalid user ID: \(error.description)"))
        }
        let rest = segments.dropFirst().joined(separator: "/")
        guard allowed(rest) else { return .failure(NotARepository(why: "\(rest) is not a path of git's smart HTTP")) }
        return .success(GitRequestPath(uid: uid, rest: rest))
    }

    /// The paths git's smart HTTP asks for (and `HEAD`, which a clone reads).
    static func allowed(_ rest: String) -> Bool {
        ["info/refs", "git-upload-pack", "git-receive-pack", "HEAD"].contains(rest)
    }

    /// Whether the request writes: a push (`git-receive-pack`), or its advertisement.
    static func isWrite(rest: String, query: String?) -> Bool {
        rest == "git-receive-pack" || (rest == "info/refs" && query?.split(separator: "&").contains("service=git-receive-pack") == true)
    }
}

/// Why a path names no repository.
struct NotARepository: Error, CustomStringConvertible {
    let why: String
    var description: String { why }
}
