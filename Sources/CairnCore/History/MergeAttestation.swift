import CairnMerge
import Git
import GitFormat

/// The check that a merge commit is what the policies give: its parents merged again, as the
/// device that made it merged them, must give its tree. Merges are deterministic and give the
/// same tree whichever side is `ours`, so a server (the `pre-receive` hook) and `cairn
/// verify` can redo any of them; a client whose merge is broken or hostile cannot push a
/// result the policies would not give.
///
/// The merge runs under the schema set of the first parent's tree (the merging store's own),
/// migrating a side at a lower version as a device's merge does, and with the merging
/// device's clock from the commit's `Cairn-Merge-Clock` trailer (else the committer's time),
/// which decides only stamps from the future.
package struct MergeAttestation {
    /// The words of every refusal of a merge, which a refused push looks for.
    package static let verdict = "is not what the policies give"

    let repository: Repository
    /// What the repository's document blobs hold: plain JSON, or sealed JSON with the key.
    let codec: DocumentCodec

    package init(repository: Repository, codec: DocumentCodec) {
        self.repository = repository
        self.codec = codec
    }

    /// Why `commit` is not the merge the policies give, in one line naming the first file
    /// (in path order) that differs; nil when it is, or when it is not a merge.
    package func refusal(of commit: Commit) throws -> String? {
        guard commit.parentIDs.count >= 2 else { return nil }
        guard commit.parentIDs.count == 2 else {
            return "\(commit.parentIDs.count) parents: a merge of progress has two (merge one side at a time)"
        }
        let ours = commit.parentIDs[0], theirs = commit.parentIDs[1]
        let schemaSet = try StoreTreeReader(repository: repository, codec: codec).schemaSet(repository.commit(ours).treeID)
        let clock = Store.trailer(Store.mergeClockTrailer, in: commit.message).flatMap { Int64($0) } ?? commit.committer.time * 1_000
        let merge = StoreMerge(repository: repository, schemaSet: schemaSet, codec: codec, context: MergeContext(clock: clock))
        let expected = try merge.merge(commit: ours, with: theirs).tree
        guard expected != commit.treeID else { return nil }
        var differences = try repository.differences(among: [expected, commit.treeID])
        // Merged again now, an encrypted store's documents are sealed with today's key; the
        // merge sealed them with the key of its day (a rotation came between): the same
        // document under another key is the same merge.
        if codec.isEncrypted {
            differences = try differences.filter { try !sameDocument($0) }
            guard !differences.isEmpty else { return nil }
        }
        guard let first = differences.first else {
            return
                "the merge of \(ours.short) and \(theirs.short) \(Self.verdict): its tree \(commit.treeID.short) holds the same files as \(expected.short), written otherwise"
        }
        let name = DocumentPath(fileName: first.path)?.description ?? first.path
        let what = first.entries[0] == nil ? "is there and should not be" : first.entries[1] == nil ? "is missing" : "differs"
        let others = differences.count > 1 ? " (and \(differences.count - 1) more file\(differences.count == 2 ? "" : "s"))" : ""
        return "the merge of \(ours.short) and \(theirs.short) \(Self.verdict): \(name) \(what)\(others)"
    }

    /// Whether a file that differs between the tree merged again and the merge's own is one
    /// document sealed under two keys: both sealed for its path, opening to the same JSON.
    private func sameDocument(_ difference: TreeDifference) throws -> Bool {
        guard DocumentPath(fileName: difference.path) != nil, let expected = difference.entries[0], let made = difference.entries[1],
            DocumentCipher.keyID(of: try repository.blobContent(expected.id))
                != DocumentCipher.keyID(of: try repository.blobContent(made.id))
        else { return false }
        return try codec.json(repository.blobContent(expected.id), at: difference.path)
            == codec.json(repository.blobContent(made.id), at: difference.path)
    }
}
