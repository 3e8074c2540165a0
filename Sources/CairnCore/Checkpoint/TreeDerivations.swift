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
            // The documents each count counts, read once however many counts take them.
            let counted = kind.counted.isEmpty ? [:] : try countedDocuments(of: kind, below: path, in: tree)
            let documents = { (count: DocumentCount) -> [JSONValue] in counted[count] ?? [] }
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

    /// The documents below `owner` in `tree` that each of its counts counts, parsed: only the
    /// folders of the counted collections walked (each once, whatever counts share it), each
    /// file read once. A document is a file, as on the device, where a symbolic link is not
    /// one; a file that does not parse is not counted, as on the device.
    private func countedDocuments(of kind: SchemaSet.Kind, below owner: DocumentPath, in tree: ObjectID) throws -> [DocumentCount:
        [JSONValue]]
    {
        let counts = Set(kind.counted.values)
        var found: [DocumentCount: [JSONValue]] = [:]
        for first in Set(counts.map { $0.collection[0] }).sorted() {
            let sharing = counts.filter { $0.collection[0] == first }
            for file in try repository.files(under: owner.folderName + "/" + first, inTree: tree) {
                guard let path = DocumentPath(fileName: file.path), let entry = file.entries[0], entry.mode & 0o170000 == 0o100000 else {
                    continue
                }
                let taking = sharing.filter { $0.contains(path, below: owner) }
                guard !taking.isEmpty else { continue }
                let bytes = try repository.blobContent(entry.id)
                guard let document = try? codec.document(bytes, at: file.path) else { continue }
                for count in taking { found[count, default: []].append(document) }
            }
        }
        return found
    }
}
