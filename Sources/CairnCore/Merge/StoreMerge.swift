import CairnMerge
import Git
import GitFormat

/// The merge of two of a store's commits, or three of its trees: what git's history and the
/// store's schema versions need around the one ``TreeMerge`` (CairnMerge), which runs over
/// the repository (``RepositoryMergeSource``).
///
/// With several merge bases (criss-cross histories) the base is itself a merge of them, so a
/// counter never counts twice; a tree whose schema set is at a lower version than another's
/// is migrated to that version first. It gives the same documents as
/// ``SchemaSet/mergeDocuments(base:ours:theirs:context:)`` on whole stores, and the same tree
/// whichever side is `ours`. What it writes goes into one pack (`Repository.packingWrites`).
struct StoreMerge {
    let repository: Repository
    /// The store's schema set (``SchemaSet/empty`` for a store without one): trees at one
    /// version merge under it.
    let schemaSet: SchemaSet
    /// What the store's document blobs hold: plain or sealed JSON.
    let codec: DocumentCodec
    /// The merging device's clock (see ``MergeContext``); none for a merge that depends on its
    /// inputs only.
    var context = MergeContext()

    typealias Outcome = TreeMerge<RepositoryMergeSource>.Outcome

    /// Merges the trees of commits `ours` and `theirs` over their merge base.
    func merge(commit ours: ObjectID, with theirs: ObjectID) throws -> Outcome {
        try repository.packingWrites {
            let base = try baseTree(ours, theirs)
            return try merge(base: base, ours: repository.commit(ours).treeID, theirs: repository.commit(theirs).treeID)
        }
    }

    /// The tree to merge against: the one merge base's, a merge of the merge bases when there
    /// are several, or the empty tree for unrelated histories.
    func baseTree(_ ours: ObjectID, _ theirs: ObjectID) throws -> ObjectID {
        let bases = try repository.mergeBases(ours, theirs)
        guard var current = bases.first else { return ObjectID.emptyTree }
        for next in bases.dropFirst() {
            let tree = try merge(
                base: baseTree(current, next), ours: repository.commit(current).treeID,
                theirs: repository.commit(next).treeID
            ).tree
            // A commit nothing points to, so that the next base's merge bases can be found.
            let fixed = Signature(name: "Cairn", email: "merge-base@cairn.invalid", time: 0)
            current = try repository.createCommit(
                tree: tree, parents: [current, next], message: "Virtual merge base\n",
                author: fixed, committer: fixed, updating: nil)
        }
        return try repository.commit(current).treeID
    }

    /// Merges three trees. A tree whose schema set is at a lower version than another's is
    /// migrated to that version first, so an old device's documents merge with a new one's.
    func merge(base: ObjectID, ours: ObjectID, theirs: ObjectID) throws -> Outcome {
        try repository.packingWrites {
            let aligned = try alignedVersions(base: base, ours: ours, theirs: theirs)
            let merge = TreeMerge(
                source: RepositoryMergeSource(repository: repository, codec: codec), schemaSet: aligned.schemaSet,
                context: context)
            return try merge.merge(base: aligned.base, ours: aligned.ours, theirs: aligned.theirs)
        }
    }

    /// The three trees at one schema version, and the set they merge under: as they are under
    /// the store's set when no tree is behind another (trees without documents do not count),
    /// else migrated to the newest set — of the trees at the top version, the one whose schema
    /// files sort last, so that both directions of a merge pick the same.
    private func alignedVersions(base: ObjectID, ours: ObjectID, theirs: ObjectID) throws
        -> (base: ObjectID, ours: ObjectID, theirs: ObjectID, schemaSet: SchemaSet)
    {
        let reader = StoreTreeReader(repository: repository, codec: codec)
        let trees = [base, ours, theirs]
        let versions = try trees.map { $0 == ObjectID.emptyTree ? 0 : try reader.version($0) }
        let top = versions.max()!
        guard !versions.allSatisfy({ $0 == top || $0 == 0 }) else {
            return (base, ours, theirs, schemaSet)
        }
        var candidates: [(entries: [String: ObjectID], tree: ObjectID)] = []
        for (tree, version) in zip(trees, versions) where version == top {
            candidates.append((try reader.schemaEntries(tree), tree))
        }
        func key(_ entries: [String: ObjectID]) -> [UInt8] {
            entries.keys.sorted().flatMap { Array($0.utf8) + entries[$0]!.bytes }
        }
        let chosen = candidates.max { key($0.entries).lexicographicallyPrecedes(key($1.entries)) }!
        let target = try reader.schemaSet(chosen.tree)
        let aligned = try trees.map { tree in
            tree == ObjectID.emptyTree ? tree : try reader.migrated(tree, to: target, targetEntries: chosen.entries)
        }
        // The merge reads the migrated trees.
        try repository.writePendingObjects()
        return (aligned[0], aligned[1], aligned[2], target)
    }
}
