import CairnMerge

/// Document paths, collection paths and IDs on arbitrary text.
///
/// A path accepted keeps every rule of an ID in each segment, is the same bytes when written
/// again, reads back from its file name, and is a file a fetched tree may hold (so what one
/// device writes, another accepts). Exactly one of document and collection accepts a path
/// whose IDs are valid. Two IDs collide when they differ in bytes but not in case or Unicode
/// normalization.
public enum PathFuzzing {
    public static func run(_ input: [UInt8]) {
        guard let text = String(validating: input, as: UTF8.self) else { return }
        checkPath(text)
        checkID(text)
        if let newline = text.firstIndex(of: "\n") {
            checkCollision(String(text[..<newline]), String(text[text.index(after: newline)...]))
        }
    }

    static func checkPath(_ text: String) {
        let document = Result { () throws(PathError) in try DocumentPath(text) }
        let collection = Result { () throws(PathError) in try CollectionPath(text) }
        switch (document, collection) {
        case (.success(let path), .failure(let error)):
            Invariant.require(error.rule == .notACollection, "a document path refused as a collection for \(error.rule)")
            checkDocument(path, text: text)
        case (.failure(let error), .success(let path)):
            Invariant.require(error.rule == .notADocument, "a collection path refused as a document for \(error.rule)")
            Invariant.require(path.segments.count % 2 == 1, "a collection with an even number of IDs")
            Invariant.require(path.description.utf8.elementsEqual(text.utf8), "a collection path written differently")
            path.segments.forEach(checkRules)
        case (.success, .success):
            Invariant.require(false, "a path accepted as both a document and a collection")
        case (.failure(let first), .failure(let second)):
            Invariant.require(first == second, "document and collection refuse one path differently: \(first) / \(second)")
        }
    }

    static func checkDocument(_ path: DocumentPath, text: String) {
        Invariant.require(path.segments.count >= 2 && path.segments.count % 2 == 0, "a document with \(path.segments.count) IDs")
        Invariant.require(path.description.utf8.elementsEqual(text.utf8), "a document path written differently")
        Invariant.require(DocumentPath(fileName: path.fileName) == path, "a document does not read back from its file name")
        Invariant.require((try? path.collection.document(path.id)) == path, "a document is not its collection's document")
        path.segments.forEach(checkRules)
        // What one device writes, another must accept when it arrives (a path outside
        // users/ is tried as a subcollection of a user's document).
        let stored = path.segments[0] == "users" ? path.segments : ["users", "u1"] + path.segments
        let file = stored.dropLast() + [path.id + ".json"]
        let refusal = StoreTree.refusal(of: file.map { Array($0.utf8) }, mode: 0o100644, uid: stored[1])
        Invariant.require(refusal == nil, "a valid document is refused in a fetched tree: \(refusal?.description ?? "")")
    }

    static func checkID(_ text: String) {
        guard (try? DocumentID.validate(text, in: text)) != nil else { return }
        checkRules(text)
        Invariant.require((try? DocumentPath("users/u1/c/" + text))?.id == text, "a valid ID is not a valid document")
        Invariant.require((try? CollectionPath("users/u1/" + text)) != nil, "a valid ID is not a valid collection")
        let folder = StoreTree.refusal(of: ["users", "u1", text, "d.json"].map { Array($0.utf8) }, mode: 0o100644, uid: "u1")
        Invariant.require(folder == nil, "a valid ID is refused as a folder of a fetched tree: \(folder?.description ?? "")")
    }

    /// The rules of an ID, as CairnCore.docc, HowAStoreWorks states them.
    static func checkRules(_ id: String) {
        let scalars = id.unicodeScalars
        Invariant.require(!id.isEmpty && id.utf8.count <= DocumentID.maxBytes, "an ID of \(id.utf8.count) bytes")
        Invariant.require(
            !id.utf8.contains(UInt8(ascii: "/")) && !id.utf8.contains(UInt8(ascii: "\\")),
            "an ID with a slash or a backslash")
        Invariant.require(id != "." && id != "..", "an ID that is a dot name")
        Invariant.require(!scalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "an ID with a control character")
        Invariant.require(!(id.utf8.count >= 4 && id.hasPrefix("__") && id.hasSuffix("__")), "a reserved ID")
        Invariant.require(id.utf8.first != UInt8(ascii: "."), "an ID with a leading dot")
        Invariant.require(!id.lowercased().utf8.reversed().starts(with: ".json".utf8.reversed()), "an ID ending in .json")
    }

    static func checkCollision(_ first: String, _ second: String) {
        let collide = DocumentID.collide(first, second)
        Invariant.require(collide == DocumentID.collide(second, first), "collision is not symmetric")
        Invariant.require(!DocumentID.collide(first, first), "an ID collides with itself")
        let sameBytes = first.utf8.elementsEqual(second.utf8)
        if !sameBytes && (first == second || first.lowercased() == second.lowercased()) {
            Invariant.require(collide, "IDs that differ only in case or normalization do not collide")
        }
        if collide {
            Invariant.require(!sameBytes, "the same bytes collide")
        }
    }
}
