import CairnCore
import CairnMerge
import Foundation

/// A request for a repository, read from its path: a user's progress, `/git/<uid>.git/<rest>`,
/// or an item of shared content, `/git/content/<collection>/<item>.git/<rest>` (as `cairn
/// server content init` lays them out); each name percent-decoded and checked by Cairn's ID
/// rules, the rest one of the paths git's smart HTTP asks for. Anything else — `..`, an
/// encoded `/`, a name Cairn refuses, a path git does not ask for — is not a request for a
/// repository.
struct GitRequestPath: Sendable, Hashable {
    /// Whose repository it is.
    enum Repository: Sendable, Hashable {
        /// A user's progress.
        case progress(uid: String)
        /// An item of shared content, which every signed-in user reads.
        case content(collection: String, item: String)
    }

    let repository: Repository
    /// What follows `.git/` (`info/refs`, `git-upload-pack`, `git-receive-pack`, …).
    let rest: String

    /// The user whose progress it is; nil for content.
    var uid: String? {
        if case .progress(let uid) = repository { uid } else { nil }
    }

    /// The repository's path below the server's folder (`u1.git`, `content/assessments/a1.git`).
    var folder: String {
        switch repository {
        case .progress(let uid): "\(uid).git"
        case .content(let collection, let item): "content/\(collection)/\(item).git"
        }
    }

    /// The prefix every repository's path has.
    static let prefix = "/git/"

    /// Reads `path` (the request's path, still percent-encoded); why, when it is not a
    /// repository's.
    static func read(_ path: String) -> Result<GitRequestPath, NotARepository> {
        guard path.hasPrefix(prefix) else { return .failure(NotARepository(why: "not under \(prefix)")) }
        var segments = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let isContent = segments.first == "content" && segments.count >= 4
        if isContent { segments.removeFirst() }
        let names = isContent ? 2 : 1
        guard segments.count > names, segments[names - 1].hasSuffix(".git") else {
            return .failure(NotARepository(why: "not /git/<uid>.git/… nor /git/content/<collection>/<item>.git/…"))
        }
        segments[names - 1].removeLast(4)
        var decoded: [String] = []
        for segment in segments.prefix(names) {
            guard let name = segment.removingPercentEncoding, !name.contains("/") else {
                return .failure(NotARepository(why: "\(segment) is not a name"))
            }
            do {
                try DocumentID.validate(name, in: name)
            } catch {
                return .failure(NotARepository(why: "invalid name: \(error.description)"))
            }
            decoded.append(name)
        }
        let rest = segments.dropFirst(names).joined(separator: "/")
        guard allowed(rest) else { return .failure(NotARepository(why: "\(rest) is not a path of git's smart HTTP")) }
        let repository: Repository = isContent ? .content(collection: decoded[0], item: decoded[1]) : .progress(uid: decoded[0])
        return .success(GitRequestPath(repository: repository, rest: rest))
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
