import CairnCore
import CairnMerge

/// A Firestore export file: its documents, the database they came from (the REST form names
/// it in every document's name; the Node tool's form does not), and its shape.
///
/// Read: `{"documents": [...]}` or a JSON array of REST documents, or the Node tool's
/// `{"__collections__": …}`. Written: canonical JSON (keys sorted, two-space indent, a final
/// newline), documents sorted by path, so the same documents give the same bytes.
public struct FirestoreExportFile: Sendable {
    public var shape: FirestoreShape
    /// The database of the documents' names (REST); nil for the Node tool's form.
    public var database: FirestoreDatabase?
    public var documents: [FirestoreDocument]

    public init(shape: FirestoreShape, database: FirestoreDatabase?, documents: [FirestoreDocument]) {
        self.shape = shape
        self.database = database
        self.documents = documents
    }

    /// The limits an export file is read within: up to 1 GiB, and nesting deep enough for
    /// documents nested 128 levels (each level of a document is three in the REST form).
    static let limits = JSONLimits(maxBytes: 1 << 30, maxDepth: 3 * JSONLimits.documents.maxDepth + 8)

    /// The keys a REST document may have; the times are Firestore's own and are not kept.
    static let documentKeys: Set<String> = ["name", "fields", "createTime", "updateTime"]

    /// The key under which the Node tool's form nests collections.
    static let collectionsKey = "__collections__"

    /// An import refused: the problem, then that nothing was written.
    static func refusal(_ problem: String) -> CairnError {
        CairnError(.invalidInput, problem + "; nothing was written")
    }

    /// Reads an export file, checking every value (see ``FirestoreValue``).
    public init(parsing bytes: [UInt8]) throws(CairnError) {
        let json: JSONValue
        do {
            json = try JSONParser(limits: Self.limits).parse(bytes)
        } catch {
            throw CairnError(
                .invalidInput,
                "the file is not JSON (\(error.description)), so not a Firestore export; give the JSON file an export tool wrote — nothing was written",
                cause: error)
        }
        switch json {
        case .array(let documents):
            self = try Self.rest(documents)
        // A page of the REST API's listDocuments also names the next page, which is not a document.
        case .object(let object) where Set(object.keys) == ["documents"] || Set(object.keys) == ["documents", "nextPageToken"]:
            guard case .array(let documents)? = object["documents"] else {
                throw Self.refusal("\"documents\" is a JSON array of Firestore documents, not \(object["documents"]!.shortInlineText)")
            }
            self = try Self.rest(documents)
        case .object(let object) where object.keys == [Self.collectionsKey]:
            self = FirestoreExportFile(shape: .node, database: nil, documents: [])
            try readNode(object[Self.collectionsKey]!, below: "")
            documents.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        default:
            throw Self.refusal(
                "the file is JSON but not a Firestore export: give {\"documents\": [...]} (Firestore's REST form), a JSON array of such documents, or {\"__collections__\": …} (node-firestore-import-export's form)"
            )
        }
    }

    /// REST documents: each `{"name": …, "fields": …}`, all of one database.
    private static func rest(_ documents: [JSONValue]) throws(CairnError) -> FirestoreExportFile {
        var file = FirestoreExportFile(shape: .rest, database: nil, documents: [])
        file.documents.reserveCapacity(documents.count)
        for (index, document) in documents.enumerated() {
            let number = "document \(index + 1) of the file"
            guard case .object(let object) = document else {
                throw refusal("\(number) is \(document.shortInlineText), not a Firestore document ({\"name\": …, \"fields\": …})")
            }
            if let key = object.keys.first(where: { !documentKeys.contains($0) }) {
                throw refusal("\(number) has the key \"\(key)\", which a Firestore document has not (name, fields, createTime, updateTime)")
            }
            guard case .string(let name)? = object["name"] else {
                throw refusal("\(number) has no \"name\" (projects/P/databases/D/documents/users/UID/…)")
            }
            guard let (database, path) = FirestoreDatabase.parse(name: name) else {
                throw refusal("\(number) is named \"\(name)\", which is not a document name (projects/P/databases/D/documents/users/UID/…)")
            }
            if let known = file.database, known != database {
                throw refusal(
                    "\(name) is a document of \(database), and the file's first document is of \(known); export one database at a time")
            }
            file.database = database
            let fields: JSONObject
            switch object["fields"] {
            case nil: fields = [:]
            case .object(let given)?: fields = given
            case let other?: throw refusal("the fields of \(path) are \(other.shortInlineText), not an object of Firestore values")
            }
            file.documents.append(
                FirestoreDocument(
                    path: path, fields: try FirestoreValue.fields(rest: fields, database: database, document: path, pointer: "")))
        }
        return file
    }

    /// The Node tool's collections below the document at `parent` ("" at the top).
    private mutating func readNode(_ collections: JSONValue, below parent: String) throws(CairnError) {
        let place = parent.isEmpty ? "the top of the file" : parent
        guard case .object(let named) = collections else {
            throw Self.refusal("__collections__ at \(place) is \(collections.shortInlineText), not an object of collections")
        }
        for (collection, content) in named {
            guard case .object(let ids) = content else {
                throw Self.refusal(
                    "the collection \(collection) at \(place) is \(content.shortInlineText), not an object of documents by ID")
            }
            for (id, document) in ids {
                let path = (parent.isEmpty ? "" : parent + "/") + collection + "/" + id
                guard case .object(var fields) = document else {
                    throw Self.refusal("the document \(path) is \(document.shortInlineText), not an object of fields")
                }
                let below = fields.removeValue(forKey: Self.collectionsKey)
                // An object holding only collections is the way to them, not a document.
                if below == nil || !fields.isEmpty {
                    documents.append(
                        FirestoreDocument(path: path, fields: try FirestoreValue.fields(node: fields, document: path, pointer: "")))
                }
                if let below { try readNode(below, below: path) }
            }
        }
    }

    /// The file's bytes: canonical JSON of its shape, documents sorted by path. A REST file
    /// names documents in ``database`` (`projects/-/databases/(default)` without one).
    public func bytes() -> [UInt8] {
        let sorted = documents.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        switch shape {
        case .rest:
            let database = database ?? FirestoreDatabase(project: "-")!
            let values: [JSONValue] = sorted.map { document in
                .object([
                    "name": .string(database.name(of: document.path)), "fields": FirestoreValue.rest(document.fields, database: database),
                ])
            }
            return JSONValue.object(["documents": .array(values)]).canonicalBytes()
        case .node:
            let tree = Self.nodeCollections(sorted.map { (ArraySlice($0.path.split(separator: "/").map(String.init)), $0.fields) })
            return JSONValue.object([Self.collectionsKey: tree]).canonicalBytes()
        }
    }

    /// The Node tool's nesting of documents given by their remaining segments (collection,
    /// ID, …): an object of collections, each an object of documents by ID, a document its
    /// fields and, when documents lie below it, `__collections__`.
    private static func nodeCollections(_ documents: [(segments: ArraySlice<String>, fields: [String: FirestoreValue])]) -> JSONValue {
        var collections: [String: [String: [(segments: ArraySlice<String>, fields: [String: FirestoreValue])]]] = [:]
        for document in documents {
            let segments = document.segments
            collections[segments[segments.startIndex], default: [:]][segments[segments.startIndex + 1], default: []].append(document)
        }
        return .object(
            JSONObject(
                collections.mapValues { ids in
                    .object(
                        JSONObject(
                            ids.mapValues { entries in
                                var object = JSONObject()
                                if let own = entries.first(where: { $0.segments.count == 2 }),
                                    case .object(let fields) = FirestoreValue.node(own.fields)
                                {
                                    object = fields
                                }
                                let below = entries.filter { $0.segments.count > 2 }.map {
                                    (segments: $0.segments.dropFirst(2), fields: $0.fields)
                                }
                                if !below.isEmpty { _ = object.updateValue(nodeCollections(below), forKey: collectionsKey) }
                                return .object(object)
                            }))
                }))
    }
}
