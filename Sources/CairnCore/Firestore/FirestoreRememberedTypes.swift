import CairnMerge

/// The Firestore types that imports brought into a store where its schema set would give
/// another (``FirestoreTypeNote``: a `timestampValue` in a field declared only
/// `"type": "string"`, a `stringValue` in a date-time field): the document, the value's JSON
/// pointer and its type as the REST API names it, kept in the store's git folder
/// (`cairn/firestore-types.json`), so that an export from this store writes each such value
/// as the type it came in as, while it still is one (RFC 3339 text, a document path, base64,
/// a point). They are this copy's: a clone knows only what its schema set says.
struct FirestoreRememberedTypes: Equatable {
    /// Document path → pointer → type (REST name).
    private(set) var types: [String: [String: String]] = [:]

    /// The types worth remembering: those a value's JSON type does not tell.
    static let names: Set<String> = [
        "stringValue", "timestampValue", "referenceValue", "bytesValue", "integerValue", "doubleValue", "geoPointValue", "mapValue",
    ]

    init() {}

    /// What a file of the git folder holds; empty for no file or one that cannot be read
    /// (the types are a convenience: without them an export writes plain strings and maps).
    init(json: [UInt8]?) {
        guard let json, case .object(let documents)? = try? JSONParser().parse(json) else { return }
        for (document, pointers) in documents {
            guard case .object(let entries) = pointers else { continue }
            for (pointer, word) in entries {
                if case .string(let name) = word, Self.names.contains(name) { types[document, default: [:]][pointer] = name }
            }
        }
    }

    /// The types of `path`'s values, by pointer.
    func types(of path: DocumentPath) -> [String: String] {
        types[path.description] ?? [:]
    }

    /// Records an import: the types of `notes` replace what was remembered for every
    /// document in `imported`.
    mutating func record(_ notes: [FirestoreTypeNote], imported: [DocumentPath]) {
        for path in imported { types[path.description] = nil }
        for note in notes where Self.names.contains(note.type) {
            types[note.document.description, default: [:]][note.pointer] = note.type
        }
    }

    var json: JSONValue {
        .object(JSONObject(types.mapValues { pointers in .object(JSONObject(pointers.mapValues { .string($0) })) }))
    }
}
