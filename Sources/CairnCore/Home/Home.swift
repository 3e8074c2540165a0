import CairnMerge
import CairnSystem
import Git

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The folder that holds one store per user (the command line's is `$CAIRN_HOME`, default
/// `~/.cairn`), and which of them is active (the file `active`).
public struct Home: Sendable {
    /// The folder, as an absolute path without a trailing `/`.
    public let root: String
    /// What the program said of its surroundings, given to every store opened here.
    public let configuration: Configuration

    /// The home at `root` (relative to the current folder unless absolute).
    public init(root: String, configuration: Configuration = .standard) {
        let absolute = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        self.root = Self.normalize(absolute)
        self.configuration = configuration
    }

    /// An absolute path with `.`, `..` and repeated or trailing `/` resolved.
    package static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder of `uid`'s store.
    public func storeFolder(_ uid: String) -> String { root + "/" + uid }

    /// The users that have a store here, sorted.
    public func users() -> [String] {
        FileSystem.names(in: root)
            .filter { FileSystem.kind(storeFolder($0) + "/" + StoreLayout.identityFile) == .file }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The active user, or nil when none was chosen.
    public func activeUser() throws(CairnError) -> String? {
        guard let bytes = try FileSystem.read(root + "/active") else { return nil }
        let uid = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        return uid.isEmpty ? nil : uid
    }

    /// Makes `uid` the active user; its store must exist.
    public func use(_ uid: String) throws(CairnError) {
        try Self.validate(uid: uid)
        guard users().contains(uid) else {
            throw CairnError(.notFound, "there is no store for user \(uid) in \(root)", remedy: .createStore(uid: uid))
        }
        try FileSystem.writeAtomically(Array((uid + "\n").utf8), to: root + "/active")
    }

    /// Opens the store of `uid`, or of the active user when `uid` is nil; `lockTimeout`
    /// overrides the configuration's.
    public func openStore(_ uid: String? = nil, lockTimeout: Double? = nil) throws(CairnError) -> Store {
        let chosen: String? = if let uid { uid } else { try activeUser() }
        guard let uid = chosen else {
            throw CairnError(.notFound, "no active user in \(root)", remedy: .createOrChooseUser)
        }
        try Self.validate(uid: uid)
        var configuration = configuration
        if let lockTimeout { configuration.lockTimeout = lockTimeout }
        return try Store(uid: uid, folder: storeFolder(uid), configuration: configuration)
    }

    /// Creates the store of `uid` and makes it active if no user was. With a schema set (its
    /// name and its files), the store checks documents against it and merges by its
    /// policies; the set is copied into the store (`.cairn/schema/`) and travels with it.
    /// With `mergeDriver` (the path of the `cairn` tool), plain `git merge` and `git pull` in
    /// the store merge documents through `cairn merge-driver`, as Cairn itself does.
    @discardableResult
    ///
    /// With `encrypted`, the store's documents are sealed (``DocumentCipher``) with the
    /// configuration's keyring, which every later opening must give.
    public func createStore(
        _ uid: String, schemaSet: SchemaSetFiles? = nil,
        mergeDriver: String? = nil, encrypted: Bool = false
    ) throws(CairnError) -> Store {
        try Self.validate(uid: uid)
        if let schemaSet {
            _ = try SchemaSet(readingProgress: schemaSet, then: "nothing was created")
        }
        let folder = storeFolder(uid)
        if FileSystem.kind(folder) != nil {
            throw CairnError(.alreadyExists, "a store for user \(uid) already exists at \(folder)")
        }
        try FileSystem.makeFolders(root)
        let store = try Store.create(
            uid: uid, folder: folder, schemaSet: schemaSet, mergeDriver: mergeDriver,
            encrypted: encrypted, configuration: configuration)
        let active = try activeUser()
        if active == nil || !users().contains(active!) {
            try use(uid)
        }
        return store
    }

    /// Deletes the store of `uid` from this machine — an anonymous user's once its progress
    /// was imported, say. What it pushed stays on its remote; what it did not is gone, so a
    /// store with unpushed checkpoints or pending writes is refused unless `force` is set.
    public func deleteStore(_ uid: String, force: Bool = false) throws(CairnError) {
        try Self.validate(uid: uid)
        let store = try openStore(uid)
        if !force {
            let pending = try store.status().pending.count
            let unpushed = try store.unpushed()?.ahead
            if pending > 0 || (unpushed ?? 1) > 0 {
                throw CairnError(
                    .invalidInput,
                    "the store of \(uid) holds progress found nowhere else (\(pending) pending write(s), \(unpushed.map { "\($0) unpushed checkpoint(s)" } ?? "no remote")); import or sync it first, or delete with force"
                )
            }
        }
        do {
            try FileManager.default.removeItem(atPath: storeFolder(uid))
        } catch {
            throw CairnError(.io, "cannot delete \(storeFolder(uid)): \(error)")
        }
        if try activeUser() == uid { _ = try FileSystem.removeFile(root + "/active") }
    }

    /// A user id follows the rules of a document ID (it is one: `users/<uid>`).
    package static func validate(uid: String) throws(CairnError) {
        do {
            try DocumentID.validate(uid, in: uid)
        } catch {
            throw CairnError(.invalidInput, "invalid user id: \(error.description)", cause: error)
        }
    }
}
