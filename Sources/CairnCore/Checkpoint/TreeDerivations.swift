import CairnMerge
import Git
import GitFormat

/// The derived fields of the documents in a commit's tree, computed again from the tree
/// (counts from the documents below, read from the same tree): what a sync and the server's
/// hook check in documents other writers made.
struct TreeDerivations {
    let repository: Repository
    let schemaSet: SchemaSet
    /// What the tree's document blobs hold: plain or sealed JSON.
    let codec: DocumentCodec

    /// A document of the tree whose derived fields are wrong: the fields, and the document
    /// with all of them computed.
    struct Correction {
        var path: DocumentPath
        var mismatches: [DerivedFieldMismatch]
        var corrected: JSONValue
    }

    /// The documents of `tree` whose derived fields may be wrong after the documents at
    /// `changed` changed (see ``SchemaSet/documentsToDerive(after:)``) and are. A document the
    /// tree lacks, or that is not a JSON object, is left to the checks that refuse it.
    func corrections(in tree: ObjectID, after changed: [DocumentPath]) throws -> [Correction] {
        var corrections: [Correction] = []
        for path in schemaSet.documentsToDerive(after: changed) {
            guard let kind = schemaSet.kind(of: path), let value = try document(at: path, in: tree) else { continue }
            // The documents below, read once however many counts the document has.
            let below = kind.counted.isEmpty ? [] : try documents(below: path, in: tree)
            let documents = { (count: DocumentCount) -> [JSONValue] in
                below.filter { count.contains($0.0, below: path) }.map(\.1)
            }
            let mismatches = kind.derivedMismatches(of: value, at: path, documents: documents)
            guard !mismatches.isEmpty else { continue }
            corrections.append(Correction(path: path, mismatches: mismatches, corrected: kind.filled(value, documents: documents)))
        }
        return corrections
    }

    /// The document at `path` in `tree`, parsed; nil when the tree lacks it or it does not
    /// parse as an object.
    private func document(at path: DocumentPath, in tree: ObjectID) throws -> JSONValue? {
        guard let entry = try repository.entry(at: path.fileName, inTree: tree), !entry.isTree else { return nil }
        let bytes = try repository.blobContent(entry.id)
        guard let value = try? codec.document(bytes, at: path.fileName), case .object = value else { return nil }
        return value
    }

    /// Every document below `owner` in `tree` (its subcollections, at any depth), parsed.
    private func documents(below owner: DocumentPath, in tree: ObjectID) throws -> [(DocumentPath, JSONValue)] {
        try repository.files(under: owner.folderName, inTree: tree).compactMap { file in
            guard let path = DocumentPath(fileName: file.path), let entry = file.entries[0] else { return nil }
            let bytes = try repository.blobContent(entry.id)
            guard let value = try? codec.document(bytes, at: file.path) else { return nil }
            return (path, value)
        }
    }
}
