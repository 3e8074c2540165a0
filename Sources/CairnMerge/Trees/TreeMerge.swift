/// The three-way merge of a store's trees under a schema set's policies: the one algorithm
/// behind `sync`, `merge-tree`, `import` and ``SchemaSet/mergeDocuments(base:ours:theirs:context:)``,
/// over any ``MergeSource``.
///
/// It reads only what differs among the three trees and builds the result from `ours` by
/// replacing what changes, in four phases:
/// 1. ``mergeDocuments(base:ours:theirs:)``: each document that differs, merged under its
///    policy (a file of the store itself, `.cairn/…`, by content); the documents both
///    sides changed are read and merged by the source in batches
///    (``MergeSource/merging(_:_:)``), which it may share out between threads;
/// 2. ``restoreAncestors(_:base:ours:theirs:)``: a document deleted on one side while the
///    other changed a document below it comes back, so nothing is left without its parent;
/// 3. ``recountDerivedCounts(_:base:ours:theirs:)``: the documents that count documents below them,
///    their counts moved by what the documents that differ did (or counted again in the
///    merged tree, where the ancestor has none to start from);
/// 4. ``deriveAssetPointers(_:)``: the Git LFS pointers of the assets of every document that
///    differed, made again from the merged document.
///
/// The result is the same tree and the same records whichever side is `ours`.
package struct TreeMerge<Source: MergeSource> {
    package let source: Source
    package let schemaSet: SchemaSet
    /// The merging device's clock, for stamps from the future (none: a pure merge).
    package let context: MergeContext

    package init(source: Source, schemaSet: SchemaSet, context: MergeContext) {
        self.source = source
        self.schemaSet = schemaSet
        self.context = context
    }

    /// What a merge produced: the tree and what the policies decided.
    package struct Outcome {
        package var tree: Source.Tree
        /// Sorted (``ConflictRecord/<(_:_:)``).
        package var conflicts: [ConflictRecord]
        /// Documents both sides had changed, merged value by value.
        package var mergedDocuments: Int
    }

    /// What the merge has made so far, passed from phase to phase.
    struct Progress {
        var tree: Source.Tree
        var conflicts: [ConflictRecord] = []
        var mergedDocuments = 0
        /// The documents that differed among the trees, and those the merge brought back:
        /// the documents whose owners count again.
        var touched: [DocumentPath] = []
        /// Whether a side deleted a file, or the merge did: only then can a document lose the
        /// documents above it.
        var removals = false
        /// Whether the schema set differs among the trees: a count may then be defined
        /// otherwise than the ancestor's, and is taken in full.
        var schemaChanged = false
    }

    /// Merges `ours` and `theirs` over `base`.
    package func merge(base: Source.Tree, ours: Source.Tree, theirs: Source.Tree) throws(Source.Failure) -> Outcome {
        var progress = try mergeDocuments(base: base, ours: ours, theirs: theirs)
        if progress.removals {
            try restoreAncestors(&progress, base: base, ours: ours, theirs: theirs)
        }
        try recountDerivedCounts(&progress, base: base, ours: ours, theirs: theirs)
        try deriveAssetPointers(&progress)
        return Outcome(
            tree: progress.tree, conflicts: progress.conflicts.sorted(),
            mergedDocuments: progress.mergedDocuments)
    }

    /// Phase 1: every file that differs. A file only one side changed is that side's; a
    /// document both changed merges under its policy; a file of the store itself both
    /// changed keeps the change over a deletion, else the greater content, whichever side
    /// has it. The result is `ours` with what changed replaced.
    func mergeDocuments(base: Source.Tree, ours: Source.Tree, theirs: Source.Tree) throws(Source.Failure) -> Progress {
        // What each difference comes to, in the order of the differences: an update known at
        // once, or a document both sides changed, merged below in batches.
        var planned: [PlannedUpdate] = []
        var progress = Progress(tree: ours)
        for difference in try source.differences(base: base, ours: ours, theirs: theirs) {
            let (baseEntry, oursEntry, theirsEntry) = (difference.base, difference.ours, difference.theirs)
            let document = DocumentPath(fileName: difference.path)
            if let document { progress.touched.append(document) }
            if difference.path.hasPrefix(StoreLayout.schemaFolder + "/") { progress.schemaChanged = true }
            // An asset's pointer is made again from its merged document (phase 4).
            if let pointer = StoreLayout.assetField(ofPointerFile: difference.path) {
                progress.touched.append(pointer.document)
                continue
            }
            if baseEntry != nil, oursEntry == nil || theirsEntry == nil { progress.removals = true }
            if baseEntry == theirsEntry { continue }
            // The same blob on both sides is one change, unless the document counts
            // increments: a count raised on both sides was raised twice.
            if oursEntry == theirsEntry, oursEntry == nil || !(document.map { schemaSet.policy(for: $0).countsIncrements } ?? false) {
                continue
            }
            if baseEntry == oursEntry {
                planned.append(.update(theirsEntry.map { .upsert(path: difference.path, entry: $0) } ?? .remove(path: difference.path)))
                continue
            }
            guard let document else {
                var kept = oursEntry
                if let theirsEntry {
                    if let oursEntry {
                        if try source.bytes(of: oursEntry.blob).lexicographicallyPrecedes(source.bytes(of: theirsEntry.blob)) {
                            kept = theirsEntry
                        }
                    } else {
                        kept = theirsEntry
                    }
                }
                if let kept, kept != oursEntry {
                    planned.append(.update(.upsert(path: difference.path, entry: kept)))
                }
                continue
            }
            planned.append(.merge(document, difference))
        }

        // Each update with the position of its difference: the documents both sides changed
        // are merged in batches, and the updates go to the source in the differences' order.
        var updates: [(position: Int, update: MergeUpdate<Source.BlobID>)] = []
        var batch: [(position: Int, document: DocumentPath, difference: MergeDifference<Source.BlobID>)] = []
        for (position, plan) in planned.enumerated() {
            switch plan {
            case .update(let update):
                updates.append((position, update))
            case .merge(let document, let difference):
                batch.append((position, document, difference))
                if batch.count == Self.documentsPerBatch {
                    try mergeBatch(batch, into: &updates, progress: &progress)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
        if !batch.isEmpty { try mergeBatch(batch, into: &updates, progress: &progress) }
        updates.sort { $0.position < $1.position }
        progress.tree = try source.applying(updates.map(\.update), to: ours)
        return progress
    }

    /// What one difference of phase 1 comes to.
    private enum PlannedUpdate {
        case update(MergeUpdate<Source.BlobID>)
        case merge(DocumentPath, MergeDifference<Source.BlobID>)
    }

    /// How many documents both sides changed are merged at once: the source may share them
    /// out between threads, and each merged document's bytes are held in memory until
    /// written (a document is at most 1 MiB).
    static var documentsPerBatch: Int { 128 }

    /// Documents both sides changed, each merged under its policy: read, merged and made
    /// canonical by the source (``MergeSource/merging(_:_:)``, perhaps on several threads),
    /// then written one by one, in order.
    private func mergeBatch(
        _ batch: [(position: Int, document: DocumentPath, difference: MergeDifference<Source.BlobID>)],
        into updates: inout [(position: Int, update: MergeUpdate<Source.BlobID>)],
        progress: inout Progress
    ) throws(Source.Failure) {
        let (schemaSet, context, keepsDocuments) = (schemaSet, context, !source.writesFromBytesAlone)
        let merged = try source.merging(
            batch.map { _, document, difference in
                (document, [difference.base?.blob, difference.ours?.blob, difference.theirs?.blob])
            }
        ) { document, versions in
            let outcome = schemaSet.merge(document, base: versions[0], ours: versions[1], theirs: versions[2], context: context)
            return (
                conflicts: outcome.conflicts, canonical: outcome.value?.canonicalBytes(),
                document: keepsDocuments ? outcome.value : nil
            )
        }
        precondition(merged.count == batch.count, "the source merged \(merged.count) documents of \(batch.count)")
        for ((position, document, difference), (conflicts, canonical, value)) in zip(batch, merged) {
            progress.mergedDocuments += 1
            progress.conflicts += conflicts
            if let canonical {
                let blob = try source.write(value, canonicalBytes: canonical, at: document)
                if blob != difference.ours?.blob {
                    updates.append((position, .upsert(path: difference.path, entry: .file(blob))))
                }
            } else if difference.ours != nil {
                progress.removals = true
                updates.append((position, .remove(path: difference.path)))
            }
        }
    }

    /// Phase 2: a document deleted with its subcollections on one side while the other
    /// changed something below it. The change is kept (modify beats delete), and so the
    /// documents above it come back — from `ours`, else `theirs`, else `base` — each
    /// recorded as a ``PolicyName/cascade``.
    func restoreAncestors(
        _ progress: inout Progress, base: Source.Tree, ours: Source.Tree,
        theirs: Source.Tree
    ) throws(Source.Failure) {
        var restored: [MergeUpdate<Source.BlobID>] = []
        for path in progress.touched {
            guard path.segments.count > 2, try source.entry(at: path.fileName, in: progress.tree) != nil else { continue }
            var length = 2
            while length < path.segments.count {
                let ancestor = DocumentPath(checkedSegments: Array(path.segments.prefix(length)))
                length += 2
                guard try source.entry(at: ancestor.fileName, in: progress.tree) == nil,
                    !restored.contains(where: { $0.path == ancestor.fileName })
                else { continue }
                var kept: MergeEntry<Source.BlobID>?
                for side in [ours, theirs, base] where kept == nil {
                    kept = try source.entry(at: ancestor.fileName, in: side)
                }
                guard let kept else { continue }
                restored.append(.upsert(path: ancestor.fileName, entry: kept))
                progress.conflicts.append(
                    ConflictRecord(
                        document: ancestor, pointer: "", policy: .cascade,
                        kept: try value(kept, at: ancestor), replaced: nil))
                progress.touched.append(ancestor)
            }
        }
        if !restored.isEmpty {
            progress.tree = try source.applying(restored, to: progress.tree)
        }
    }

    /// Phase 3: the counts of documents (`countDocuments`) of every document that counts
    /// something that differed — and its other derived fields with them. A count moves from
    /// the common ancestor's by difference, as counters merge: each counted document that
    /// differs adds what it counts in the merged tree and takes away what it counted in
    /// `base`, so that only the documents that differ are read. The ancestor's count is
    /// trusted only where each side's count is the ancestor's moved by that side's own
    /// changes; otherwise (a side that corrected a wrong count, a count by hand, a new owner,
    /// another tool's value), or where the schema set differs among the trees (a count may
    /// be defined otherwise), the count is taken again from every counted document of the
    /// merged tree. The result does not depend on which side is `ours`. A counted document of
    /// the merged tree that cannot be read is the source's error, never left out of a count.
    func recountDerivedCounts(
        _ progress: inout Progress, base: Source.Tree, ours: Source.Tree,
        theirs: Source.Tree
    ) throws(Source.Failure) {
        // A set that counts no documents has nothing to count again.
        guard schemaSet.kinds.contains(where: { !$0.counted.isEmpty }) else { return }
        // The owners to count again, each with the touched documents below it that it counts.
        var owners = Set<DocumentPath>()
        var touchedBelow: [DocumentPath: [DocumentPath]] = [:]
        for path in Set(progress.touched) {
            if let kind = schemaSet.kind(of: path), !kind.counted.isEmpty { owners.insert(path) }
            for owner in schemaSet.owners(affectedBy: path) {
                owners.insert(owner)
                touchedBelow[owner, default: []].append(path)
            }
        }
        var updates: [MergeUpdate<Source.BlobID>] = []
        for owner in owners.sorted() {
            guard let entry = try source.entry(at: owner.fileName, in: progress.tree), !entry.isFolder,
                let kind = schemaSet.kind(of: owner)
            else { continue }
            let current = try source.document(in: entry.blob, at: owner)
            // Counts are computed in objects only: another value is written as it is.
            var filled = current
            if case .object = current {
                if !progress.schemaChanged,
                    let counts = try countsByDifference(
                        of: owner, kind: kind, trees: [base, ours, theirs, progress.tree],
                        touched: touchedBelow[owner] ?? [])
                {
                    filled = kind.filled(current, counting: { field, _ in counts[field]! })
                } else {
                    let counted = try countedDocuments(below: owner, in: progress.tree)
                    filled = kind.filled(current, documents: { count in counted[count] ?? [] })
                }
            }
            let blob = try source.write(filled, at: owner)
            if blob != entry.blob {
                updates.append(.upsert(path: owner.fileName, entry: .file(blob)))
            }
        }
        if !updates.isEmpty {
            progress.tree = try source.applying(updates, to: progress.tree)
        }
    }

    /// The counts of `owner` in the merged tree, by field: its counts in the base moved by
    /// what each document of `touched` (the documents below it that differ) it counts did
    /// between the base and the merged tree. `trees`: base, ours, theirs, merged. Nil when
    /// the base gives nothing to start from that both sides agree with: an owner missing or
    /// unparsable in the base or a side, a count that is no whole number, a side whose count
    /// is not the base's moved by that side's changes, or a counted document of the base or
    /// a side that does not parse.
    private func countsByDifference(
        of owner: DocumentPath, kind: SchemaSet.Kind, trees: [Source.Tree],
        touched: [DocumentPath]
    ) throws(Source.Failure) -> [String: JSONValue]? {
        // The owner as base, ours and theirs hold it.
        var stored: [JSONObject] = []
        for tree in trees.prefix(3) {
            guard let entry = try source.entry(at: owner.fileName, in: tree), !entry.isFolder,
                case .object(let fields)? = try? source.document(in: entry.blob, at: owner)
            else { return nil }
            stored.append(fields)
        }
        var counts: [String: JSONValue] = [:]
        for (field, count) in kind.counted {
            // The count in base, ours and theirs, and what each of the four trees' documents adds.
            var totals: [Int64] = []
            for fields in stored {
                guard case .integer(let total)? = fields[field], total >= 0 else { return nil }
                totals.append(total)
            }
            var moved: [Int64] = [0, 0, 0]
            // What the count makes of each blob, read once however many trees hold it.
            var known: [Source.BlobID: Int64] = [:]
            for path in touched where count.contains(path, below: owner) {
                var taken: [Int64] = []
                for (position, tree) in trees.enumerated() {
                    guard let entry = try source.entry(at: path.fileName, in: tree), entry.mode & 0o170000 == 0o100000 else {
                        taken.append(0)
                        continue
                    }
                    if let value = known[entry.blob] {
                        taken.append(value)
                        continue
                    }
                    // A document of the merged tree that cannot be read is the source's error.
                    let document =
                        position == 3
                        ? try source.document(in: entry.blob, at: path)
                        : try? source.document(in: entry.blob, at: path)
                    guard let document else { return nil }
                    let value: Int64 = count.takes(document) ? 1 : 0
                    known[entry.blob] = value
                    taken.append(value)
                }
                for side in 0..<3 {
                    guard case (let sum, false) = moved[side].addingReportingOverflow(taken[side + 1] - taken[0]) else { return nil }
                    moved[side] = sum
                }
            }
            // moved: ours, theirs, merged against base.
            guard totals[1] &- totals[0] == moved[0], totals[2] &- totals[0] == moved[1],
                case (let total, false) = totals[0].addingReportingOverflow(moved[2]), total >= 0
            else { return nil }
            counts[field] = .integer(total)
        }
        return counts
    }

    /// Phase 4: the pointers of the assets of each document that differed, as its merged
    /// version names them (a pointer is never merged on its own: two devices that set an
    /// asset field differently get the pointer of the asset the field's policy kept).
    func deriveAssetPointers(_ progress: inout Progress) throws(Source.Failure) {
        guard schemaSet.hasAssets else { return }
        var updates: [MergeUpdate<Source.BlobID>] = []
        for document in Set(progress.touched).sorted() {
            // A kind without asset fields expects no pointer: its document is not read again
            // (a pointer left below it is still removed).
            let merged: JSONValue?
            if let kind = schemaSet.kind(of: document), !kind.assets.isEmpty {
                let entry = try source.entry(at: document.fileName, in: progress.tree)
                merged = try entry.flatMap { entry throws(Source.Failure) in
                    entry.isFolder ? nil : try source.document(in: entry.blob, at: document)
                }
            } else {
                merged = nil
            }
            let expected = schemaSet.assetPointers(of: merged, at: document)
            let folder = StoreLayout.assetFolder(of: document)
            var present: [String: Source.BlobID] = [:]
            for file in try source.files(under: folder, in: progress.tree) where !file.path.dropFirst(folder.count + 1).contains("/") {
                present[file.path] = file.entry.blob
            }
            for path in present.keys.sorted() where expected[path] == nil {
                updates.append(.remove(path: path))
            }
            for (path, bytes) in expected.sorted(by: { $0.key < $1.key }) {
                if let blob = present[path], try source.bytes(of: blob) == bytes { continue }
                updates.append(.upsert(path: path, entry: .file(try source.write(bytes: bytes))))
            }
        }
        if !updates.isEmpty {
            progress.tree = try source.applying(updates, to: progress.tree)
        }
    }

    /// The documents below `owner` in `tree` that each of its counts counts: only the folders
    /// of the counted collections listed (each once, whatever counts share it), each file read
    /// once. A document is a file, as on the device, where a symbolic link is not one.
    func countedDocuments(below owner: DocumentPath, in tree: Source.Tree) throws(Source.Failure) -> [DocumentCount: [JSONValue]] {
        guard let kind = schemaSet.kind(of: owner), !kind.counted.isEmpty else { return [:] }
        let counts = Set(kind.counted.values)
        var found: [DocumentCount: [JSONValue]] = [:]
        for first in Set(counts.map { $0.collection[0] }).sorted() {
            let sharing = counts.filter { $0.collection[0] == first }
            for file in try source.files(under: owner.folderName + "/" + first, in: tree) where file.entry.mode & 0o170000 == 0o100000 {
                guard let path = DocumentPath(fileName: file.path) else { continue }
                let taking = sharing.filter { $0.contains(path, below: owner) }
                guard !taking.isEmpty else { continue }
                let document = try source.document(in: file.entry.blob, at: path)
                for count in taking { found[count, default: []].append(document) }
            }
        }
        return found
    }

    /// The document an entry holds, parsed; nil for an absent entry.
    private func value(_ entry: MergeEntry<Source.BlobID>?, at path: DocumentPath) throws(Source.Failure) -> JSONValue? {
        guard let entry else { return nil }
        return try source.document(in: entry.blob, at: path)
    }
}
