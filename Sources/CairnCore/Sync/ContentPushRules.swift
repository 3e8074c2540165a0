import CairnMerge
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules every push to a content item's repository (`content/<collection>/<item>.git`)
/// must meet, applied by the server's `pre-receive` hook. Every commit on the branch is a
/// version a device may hold, so each new commit is checked, not only the last:
///
/// - only `main` changes, never deleted, always a fast-forward (a version once published stays
///   reachable);
/// - every new commit holds only the item's files (``ContentTree``) and the item's own document;
/// - every document a commit changes is at most 1 MiB, valid JSON, described by the
///   collection's schema set and valid under it;
/// - every derived field is what its schema computes, in every new commit's tree.
package struct ContentPushRules {
    let repository: Repository
    /// The collection (`assessments`) and the item (`a1`).
    let collection: String
    let item: String
    /// The collection's schema set (`content/<collection>/schema/`).
    let schemaSet: SchemaSet

    package init(repository: Repository, collection: String, item: String, schemaSet: SchemaSet) {
        self.repository = repository
        self.collection = collection
        self.item = item
        self.schemaSet = schemaSet
    }

    /// The refusals of one update of `reference` from `old` to `new` (none: it is accepted).
    package func refusals(updating reference: String, from old: ObjectID?, to new: ObjectID?) throws -> [String] {
        guard reference == "refs/heads/" + Store.branch else {
            return ["only \(Store.branch) holds the versions of \(collection)/\(item); \(reference) is refused"]
        }
        guard let new else {
            return [
                "deleting \(Store.branch) is refused: a published version stays reachable (an item is removed on the server, by its operator)"
            ]
        }
        if let old, old != new, try !repository.isDescendant(new, of: old) {
            return [
                "the push is not a fast-forward of \(old.short): a published version is never rewritten; fetch, commit on top and push again"
            ]
        }
        let itemDocument = try DocumentPath(collection + "/" + item)
        var refusals: [String] = []
        // Oldest first, so the first refusal is that of the first version that breaks a rule.
        for id in try repository.commits(from: new, hiding: old.map { [$0] } ?? []).reversed() {
            let commit = try repository.commit(id)
            let parentTree = try commit.parentIDs.first.map { try repository.commit($0).treeID }
            var changed: [DocumentPath] = []
            var found: [String] = []
            for difference in try repository.differences(among: [parentTree, commit.treeID]) {
                guard let entry = difference.entries[1] else {
                    if let document = DocumentPath(fileName: difference.path) { changed.append(document) }
                    continue
                }
                if let refusal = ContentTree.refusal(of: difference.components, mode: entry.mode, collection: collection, item: item) {
                    found.append(refusal)
                    continue
                }
                guard let document = DocumentPath(fileName: difference.path) else { continue }
                changed.append(document)
                guard let kind = schemaSet.kind(of: document) else {
                    found.append(
                        "\(document) is no kind of document of the collection's schema set; its paths are \(schemaSet.kinds.map { $0.pattern.description }.sorted().joined(separator: ", "))"
                    )
                    continue
                }
                if let refusal = PushRules.refusal(of: try repository.blobContent(entry.id), at: document, kind: kind) {
                    found.append(refusal)
                }
            }
            if try repository.blobID(at: itemDocument.fileName, inCommit: id) == nil {
                found.append("\(itemDocument.fileName) is missing: every version holds the item's own document")
            }
            if found.isEmpty {
                found = try TreeDerivations(repository: repository, schemaSet: schemaSet, codec: .plain)
                    .corrections(in: commit.treeID, after: changed).flatMap(\.mismatches).map(\.description)
            }
            refusals += found.map { "commit \(id.short): \($0)" }
        }
        return refusals
    }
}
