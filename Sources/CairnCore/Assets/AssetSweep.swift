import CairnMerge
import Git
import GitFormat

/// Which assets a change of a store's branch leaves behind: those the Git LFS pointers of
/// the old tip name and the new tip's do not. Their bytes are removed from the server's
/// storage once the change is in (the post-receive hook, or the device that pushed to a path
/// remote) and from each device at its next sync: an asset nobody points to any more is
/// deleted, and history keeps its pointer only.
///
/// Only assets named in the old tip are candidates, never an object uploaded for a push not
/// yet received: another device's upload is never swept away before its commit lands.
package enum AssetSweep {
    /// The oids the pointers of `tree` name.
    package static func oids(in repository: Repository, tree: ObjectID) throws -> Set<String> {
        Set(try repository.assetPointers(inTree: tree).values.map(\.oid))
    }

    /// The assets the commit `old` points to and `new` does not.
    package static func unreferenced(in repository: Repository, from old: ObjectID?, to new: ObjectID) throws -> Set<String> {
        guard let old else { return [] }
        let before = try oids(in: repository, tree: repository.commit(old).treeID)
        guard !before.isEmpty else { return [] }
        return before.subtracting(try oids(in: repository, tree: repository.commit(new).treeID))
    }

    /// After a push moved the `main` of the bare repository `repository` from `old` to `new`:
    /// removes from its asset storage (``storage(of:)``) the assets `old` named that neither
    /// `new` nor `main` as it is now names (another push may have landed since, naming one
    /// again); returns them.
    @discardableResult
    package static func sweepAfterPush(_ repository: Repository, from old: ObjectID?, to new: ObjectID) throws -> [String] {
        var candidates = try unreferenced(in: repository, from: old, to: new)
        guard !candidates.isEmpty else { return [] }
        if let current = try repository.reference("refs/heads/" + Store.branch), current != new {
            candidates.subtract(try oids(in: repository, tree: repository.commit(current).treeID))
        }
        let storage = storage(of: repository)
        var removed: [String] = []
        for oid in candidates.sorted() where try storage.remove(oid) {
            removed.append(oid)
        }
        return removed
    }

    /// The git config key of a server repository's asset storage: the folder its LFS server
    /// keeps the repository's objects in (git-lfs's `aa/bb/<oid>` layout, or one file per
    /// oid). Without it, `<repository>/lfs/objects`, where a path remote keeps them.
    package static let storageConfigKey = "cairn.lfsStorage"

    /// The asset storage of the bare repository `repository` (a server's, or a path remote).
    package static func storage(of repository: Repository) -> AssetObjects {
        let gitdir = repository.gitdir.hasSuffix("/") ? String(repository.gitdir.dropLast()) : repository.gitdir
        if let configured = (try? repository.config(storageConfigKey)).flatMap({ $0 }), !configured.isEmpty {
            return AssetObjects(folder: configured.hasPrefix("/") ? configured : gitdir + "/" + configured)
        }
        return .bare(at: gitdir)
    }
}
