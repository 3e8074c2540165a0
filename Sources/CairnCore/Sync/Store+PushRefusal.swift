import CairnMerge
import Git
import GitFormat

extension Store {
    /// The error for a push `remote` refused saying `reason`, when the store was to move it
    /// from `remoteCommit` to `local`: it names the way out. The documents the push would
    /// change that the reason names are the refused ones; restoring them
    /// (``restore(_:from:)``) takes them back to the remote's version in a new checkpoint (an
    /// append-only attempt the remote never received included), keeping every other unpushed
    /// document — the remedy ``CairnError/Remedy/restoreDocuments(_:)``. `checkedHere`: the
    /// store found what the server's hook would refuse, and sent nothing.
    func pushRefusal(
        _ reason: String, by remote: RemoteURL, local: ObjectID, remoteCommit: ObjectID?,
        checkedHere: Bool = false
    ) throws -> CairnError {
        let ours = try repository.commit(local).treeID
        let theirs = try remoteCommit.map { try repository.commit($0).treeID }
        let documents = try repository.differences(among: [theirs, ours])
            .compactMap { DocumentPath(fileName: $0.path) }
            .filter { Self.text(reason, names: $0) }
            .sorted()
        let refused = checkedHere ? "the push to \(remote) breaks the server's rules, and was not sent" : "\(remote) refused the push"
        if reason.contains(MergeAttestation.verdict) {
            // Restoring documents adds a checkpoint after the merge, which stays in what is
            // pushed: the merge itself must go, and the next sync merges the two sides anew.
            return CairnError(
                .refused,
                "\(refused): \(reason); a git tool made that merge, not the policies: take the store back to before it (git reset --keep to the merge's first parent, when nothing was committed after it), then sync again and the two sides merge anew",
                cause: PushRefusal(reason: reason, documents: []))
        }
        let backOnCheckpoint = "\(refused): \(reason); the store is back on its last checkpoint"
        guard !documents.isEmpty else {
            return CairnError(
                .refused, backOnCheckpoint + " — fix what it names, then sync again",
                cause: PushRefusal(reason: reason, documents: documents))
        }
        return CairnError(
            .refused, backOnCheckpoint, remedy: .restoreDocuments(documents),
            cause: PushRefusal(reason: reason, documents: documents))
    }

    /// Whether `text` names `document` as a whole path: not a longer path or ID that starts
    /// the same, nor its file (`….json`, which a per-commit rule names).
    static func text(_ text: String, names document: DocumentPath) -> Bool {
        let path = Array(document.description.utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= path.count else { return false }
        let before: Set<UInt8> = Set(" (\"'`,;:".utf8)
        let after: Set<UInt8> = Set(" :;,)\"'`".utf8)
        var start = 0
        while start + path.count <= bytes.count {
            if bytes[start..<start + path.count].elementsEqual(path),
                start == 0 || before.contains(bytes[start - 1]),
                start + path.count == bytes.count || after.contains(bytes[start + path.count])
            {
                return true
            }
            start += 1
        }
        return false
    }
}
