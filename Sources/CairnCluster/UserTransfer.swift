import CairnCore
import CairnMerge
import CairnSystem

/// One user's repository moved from one shard to another: on the shard it leaves, pushes
/// held (``PushHold``) and the whole repository bundled; on the shard it joins, the repository
/// made from the bundle, its refs compared and its history audited before it serves. The
/// router switches only then, and the old shard retires its copy (``ShardFolder/retire(_:movedTo:)``).
public enum UserTransfer {
    /// Holds the pushes to `uid`'s repository, then writes the bundle of all of it to `file`;
    /// returns its refs (empty, and no file, for a repository with no commit yet).
    public static func export(_ uid: String, from folder: ShardFolder, to file: String, holdTimeout: Double = 30) async throws(BackupError)
        -> [String: String]
    {
        let repository = folder.repository(uid)
        guard FileSystem.kind(repository) == .folder else { throw BackupError("there is no repository of \(uid) on this shard") }
        try BackupError.local { () throws(CairnError) in try PushHold.take(repository, timeout: holdTimeout) }
        let refs = try await GitBundles.refs(of: repository)
        if !refs.isEmpty {
            _ = try await GitBundles.create(repository, to: file, since: [])
        }
        return refs
    }

    /// Makes `uid`'s repository from `bundle` (nil: a repository with no commit yet), with
    /// `expected` as its refs and a history that verifies; refused in one line otherwise, with
    /// nothing left behind.
    public static func importRepository(
        _ uid: String, bundle: String?, expecting expected: [String: String], into folder: ShardFolder,
        cairn: String, schemaSet: SchemaSetFiles?
    ) async throws(BackupError) -> [String: String] {
        do {
            return try await RepositoryRebuild(folder: folder, cairn: cairn, schemaSet: schemaSet)
                .build(uid, from: bundle.map { [$0] } ?? [], expecting: expected, audit: true)
        } catch {
            throw BackupError("the copy of \(uid) was refused: \(error.reason)")
        }
    }

    /// The refs as lines `<object> <ref>`, sorted: what the admin endpoints answer.
    public static func text(_ refs: [String: String]) -> String {
        refs.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)\n" }.joined()
    }

    /// Reads `text`'s lines back.
    public static func refs(_ text: String) -> [String: String] {
        var refs: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { refs[String(parts[1])] = String(parts[0]) }
        }
        return refs
    }

    /// The refs of `uid`'s repository on this shard.
    public static func refs(of uid: String, in folder: ShardFolder) async throws(BackupError) -> [String: String] {
        try await GitBundles.refs(of: folder.repository(uid))
    }
}
