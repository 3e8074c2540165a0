import CairnMerge
import Git
import GitFormat

/// The three-way merge of two commits' trees under a schema set's policies, done by reading
/// only what differs: folders equal on the three sides are never opened, and the result is
/// built from `ours` by replacing the documents that change.
///
/// It gives the same documents as ``SchemaSet/mergeDocuments(base:ours:theirs:)`` on whole
/// stores, and the same tree whichever side is `ours`. With several merge bases (criss-cross
/// histories) the base is itself a merge of them, so a counter never counts twice.
struct TreeMerge {
    let repository: Repository
    let schemaSet: SchemaSet?
    /// The merging device's clock in milliseconds (see ``MergeClock``): what last-writer-wins
    /// checks stamps from the future against. Nil: none is.
    var clock: Int64? = nil

    /// What a merge produced: the tree and what the policies decided.
    struct Outcome {
        var tree: ObjectID
        var conflicts: [ConflictRecord]
        /// Documents both sides had changed, merged value by value.
        var mergedDocuments: Int
    }

    /// Merges the trees of commits `ours` and `theirs` over their merge base.
    /// The merged documents and trees are written as one pack (see `Repository.packingWrites`).
    func merge(commit ours: ObjectID, with theirs: ObjectID) throws -> Outcome {
        try MergeClock.$now.withValue(clock) {
            try mergeCommits(ours, theirs)
        }
    }

    private func mergeCommits(_ ours: ObjectID, _ theirs: ObjectID) throws -> Outcome {
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
            let tree = try merge(base: baseTree(current, next), ours: repository.commit(current).treeID,
                                 theirs: repository.commit(next).treeID).tree
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
        try repository.packingWrites { try mergeTrees(base: base, ours: ours, theirs: theirs) }
    }

    private func mergeTrees(base: ObjectID, ours: ObjectID, theirs: ObjectID) throws -> Outcome {
        let reader = StoreTreeReader(repository: repository)
        let trees = [base, ours, theirs]
        let versions = try trees.map { $0 == ObjectID.emptyTree ? 0 : try reader.version($0) }
        let top = versions.max()!
        guard versions.allSatisfy({ $0 == top || $0 == 0 }) else {
            // The set to migrate to: of the trees at the top version, the one whose schema
            // files sort last, so that both directions of a merge pick the same.
            var candidates: [(entries: [String: ObjectID], tree: ObjectID)] = []
            for (tree, version) in zip(trees, versions) where version == top {
                candidates.append((try reader.schemaEntries(tree), tree))
            }
            func key(_ entries: [String: ObjectID]) -> [UInt8] {
                entries.keys.sorted().flatMap { Array($0.utf8) + entries[$0]!.bytes }
            }
            let chosen = candidates.max { key($0.entries).lexicographicallyPrecedes(key($1.entries)) }!
            guard let target = try reader.schemaSet(chosen.tree) else { return try mergeAligned(base: base, ours: ours, theirs: theirs, set: schemaSet) }
            let aligned = try trees.map { tree in
                tree == ObjectID.emptyTree ? tree : try reader.migrated(tree, to: target, targetEntries: chosen.entries)
            }
            // The merge reads the migrated trees.
            try repository.writePendingObjects()
            return try mergeAligned(base: aligned[0], ours: aligned[1], theirs: aligned[2], set: target)
        }
        return try mergeAligned(base: base, ours: ours, theirs: theirs, set: schemaSet)
    }

    /// Merges three trees whose documents are at one schema version, under `schemaSet`.
    private func mergeAligned(base: ObjectID, ours: ObjectID, theirs: ObjectID, set schemaSet: SchemaSet?) throws -> Outcome {
        func present(_ tree: ObjectID) -> ObjectID? { tree == ObjectID.emptyTree ? nil : tree }
        let differences = try repository.differences(among: [present(base), present(ours), present(theirs)])
        var updates: [TreeUpdate] = []
        var conflicts: [ConflictRecord] = []
        var merged = 0
        var touched: [DocumentPath] = []
        // Whether a side deleted a file, or the merge did: only then can a document lose the
        // documents above it.
        var removals = false
        for difference in differences {
            let (b, o, t) = (difference.entries[0], difference.entries[1], difference.entries[2])
            let document = DocumentPath(fileName: difference.path)
            if let document { touched.append(document) }
            if b != nil, o == nil || t == nil { removals = true }
            if o == t || b == t { continue }
            if b == o {
                updates.append(t.map { .upsert(path: difference.path, id: $0.id, mode: $0.mode) } ?? .remove(path: difference.path))
                continue
            }
            guard let document else {
                // A file of the store itself (.cairn/, .gitattributes) changed on both sides:
                // kept over a deletion, else the greater content, whichever side has it.
                let kept = try [o, t].compactMap { $0 }.max { x, y in
                    try repository.blobContent(x.id).lexicographicallyPrecedes(repository.blobContent(y.id))
                }
                if let kept, kept != o {
                    updates.append(.upsert(path: difference.path, id: kept.id, mode: kept.mode))
                }
                continue
            }
            merged += 1
            let (base, mine, other) = (try value(b, document), try value(o, document), try value(t, document))
            let outcome = schemaSet?.merge(document, base: base, ours: mine, theirs: other)
                ?? MergePolicy.plain.merge(base: base, ours: mine, theirs: other)
            conflicts += outcome.conflicts.map { record in
                var named = record
                named.document = document.description
                return named
            }
            if let result = outcome.value {
                let id = try repository.writeBlob(result.canonicalBytes())
                if id != o?.id {
                    updates.append(.upsert(path: difference.path, id: id, mode: 0o100644))
                }
            } else if o != nil {
                removals = true
                updates.append(.remove(path: difference.path))
            }
        }
        var tree = try repository.updateTree(ours, with: updates).id
        // What follows reads the merged tree: the objects waiting for the pack go first.
        try repository.writePendingObjects()
        // A document deleted with its subcollections on one side while the other changed
        // something below it: the change is kept (modify beats delete), and so the documents
        // above it come back, so that nothing is left without its parent.
        var restored: [TreeUpdate] = []
        for path in touched where removals {
            guard path.segments.count > 2, try repository.entry(at: path.fileName, inTree: tree) != nil else { continue }
            var length = 2
            while length < path.segments.count {
                let ancestor = try DocumentPath.checked(path.segments.prefix(length).joined(separator: "/"))
                length += 2
                guard try repository.entry(at: ancestor.fileName, inTree: tree) == nil,
                      !restored.contains(where: { $0.path == ancestor.fileName }) else { continue }
                let sides = try [ours, theirs, base].map { try repository.entry(at: ancestor.fileName, inTree: $0) }
                guard let kept = sides.compactMap({ $0 }).first else { continue }
                restored.append(.upsert(path: ancestor.fileName, id: kept.id, mode: kept.mode))
                conflicts.append(ConflictRecord(document: ancestor.description, pointer: "", policy: "cascade",
                                                kept: try value(kept, ancestor), replaced: nil))
                touched.append(ancestor)
            }
        }
        if !restored.isEmpty {
            tree = try repository.updateTree(tree, with: restored).id
            try repository.writePendingObjects()
            conflicts.sort()
        }
        // Counts of documents: computed again from the merged tree, for every document that
        // counts something that differed.
        if let schemaSet {
            var countUpdates: [TreeUpdate] = []
            var owners: [DocumentPath] = []
            for path in touched {
                if let kind = schemaSet.kind(of: path), !kind.counted.isEmpty, !owners.contains(path) { owners.append(path) }
                for owner in schemaSet.owners(affectedBy: path) where !owners.contains(owner) { owners.append(owner) }
            }
            for owner in owners.sorted() {
                guard let entry = try repository.entry(at: owner.fileName, inTree: tree), !entry.isTree,
                      let current = try value(entry, owner) else { continue }
                let filled = schemaSet.filled(current, at: owner) { count in
                    ((try? repository.files(under: owner.folderName, inTree: tree)) ?? []).compactMap { file in
                        guard let path = DocumentPath(fileName: file.path), count.contains(path, below: owner),
                              let entry = file.entries[0] else { return nil }
                        return try? value(entry, path)
                    }
                }
                let bytes = filled.canonicalBytes()
                let id = try repository.writeBlob(bytes)
                if id != entry.id {
                    countUpdates.append(.upsert(path: owner.fileName, id: id, mode: 0o100644))
                }
            }
            if !countUpdates.isEmpty { tree = try repository.updateTree(tree, with: countUpdates).id }
        }
        return Outcome(tree: tree, conflicts: conflicts.sorted(), mergedDocuments: merged)
    }

    /// The document an entry holds, parsed; nil for an absent entry.
    private func value(_ entry: TreeEntry?, _ path: DocumentPath) throws -> JSONValue? {
        guard let entry else { return nil }
        let bytes = try repository.blobContent(entry.id)
        do {
            return try JSONParser().parse(bytes)
        } catch {
            throw CairnError(.corrupt, "\(path) in history is not a valid document (\(error.description)); the store or the remote holds data Cairn did not write", cause: error)
        }
    }
}
