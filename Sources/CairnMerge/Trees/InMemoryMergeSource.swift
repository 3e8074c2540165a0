/// Documents in memory as a ``MergeSource``: a tree is a dictionary from file name
/// (`users/u1/books/b1.json`) to entry, and a blob is a document with its canonical bytes,
/// which name it as a git blob id would. Nothing fails: every document is parsed already.
struct InMemoryMergeSource: MergeSource {
    /// A document as a blob: equal when the canonical bytes are.
    struct Blob: Hashable {
        let bytes: [UInt8]
        let document: JSONValue

        init(_ document: JSONValue) {
            self.init(document, canonicalBytes: document.canonicalBytes())
        }

        /// A document with its canonical bytes, made already.
        init(_ document: JSONValue, canonicalBytes: [UInt8]) {
            bytes = canonicalBytes
            self.document = document
        }

        /// Bytes that are not a document (an asset's pointer); read as null.
        init(bytes: [UInt8]) {
            self.bytes = bytes
            document = .null
        }

        static func == (left: Blob, right: Blob) -> Bool { left.bytes == right.bytes }
        func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
    }

    typealias Tree = [String: MergeEntry<Blob>]
    typealias Failure = Never

    /// The tree holding `documents`, each a plain file.
    static func tree(_ documents: [DocumentPath: JSONValue]) -> Tree {
        var tree: Tree = [:]
        for (path, document) in documents { tree[path.fileName] = .file(Blob(document)) }
        return tree
    }

    /// The documents of `tree`.
    static func documents(_ tree: Tree) -> [DocumentPath: JSONValue] {
        var documents: [DocumentPath: JSONValue] = [:]
        for (file, entry) in tree {
            if let path = DocumentPath(fileName: file) { documents[path] = entry.blob.document }
        }
        return documents
    }

    func differences(base: Tree, ours: Tree, theirs: Tree) -> [MergeDifference<Blob>] {
        let paths = Set(base.keys).union(ours.keys).union(theirs.keys)
        return paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { path in
            let (baseEntry, oursEntry, theirsEntry) = (base[path], ours[path], theirs[path])
            guard baseEntry != oursEntry || oursEntry != theirsEntry else { return nil }
            return MergeDifference(path: path, base: baseEntry, ours: oursEntry, theirs: theirsEntry)
        }
    }

    func bytes(of blob: Blob) -> [UInt8] { blob.bytes }

    func document(in blob: Blob, at path: DocumentPath) -> JSONValue { blob.document }

    func entry(at path: String, in tree: Tree) -> MergeEntry<Blob>? { tree[path] }

    func files(under folder: String, in tree: Tree) -> [(path: String, entry: MergeEntry<Blob>)] {
        let prefix = folder + "/"
        return tree.filter { $0.key.hasPrefix(prefix) }.map { (path: $0.key, entry: $0.value) }
    }

    func write(_ document: JSONValue, at path: DocumentPath) -> Blob { Blob(document) }

    func write(_ document: JSONValue?, canonicalBytes: [UInt8], at path: DocumentPath) -> Blob {
        // Always given: this source does not write from bytes alone.
        Blob(document ?? .null, canonicalBytes: canonicalBytes)
    }

    func write(bytes: [UInt8]) -> Blob { Blob(bytes: bytes) }

    func applying(_ updates: [MergeUpdate<Blob>], to tree: Tree) -> Tree {
        var tree = tree
        for update in updates {
            switch update {
            case .upsert(let path, let entry): tree[path] = entry
            case .remove(let path): tree[path] = nil
            }
        }
        return tree
    }
}
