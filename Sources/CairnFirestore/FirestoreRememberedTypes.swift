import CairnCore
import CairnMerge

/// The Firestore types that imports brought into a store where its schema set would give
/// another (``FirestoreTypeNote``: a `timestampValue` in a field declared only
/// `"type": "string"`, a `stringValue` in a date-time field): the document, the value's JSON
/// pointer, its type as the REST API names it and the value it came with, kept in the store's
/// git folder (`cairn/firestore-types.json`), so that an export from this store writes each
/// such value as the type it came in as while the document holds that same value there (a
/// changed value, a new document at the path, an element moved in an array: the schema
/// decides again). They are this copy's: a clone knows only what its schema set says.
struct FirestoreRememberedTypes: Equatable {
    /// One value's type, and the value it is remembered for.
    struct Entry: Equatable {
        var type: String
        var value: JSONValue
    }

    /// Document path → pointer → entry.
    private(set) var types: [String: [String: Entry]] = [:]

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
                if case .string(let name)? = word.field("type"), Self.names.contains(name), let value = word.field("value") {
                    types[document, default: [:]][pointer] = Entry(type: name, value: value)
                }
            }
        }
    }

    /// The types of the values of `document` (at `path`) that are still those remembered,
    /// by pointer.
    func types(of path: DocumentPath, as document: JSONValue) -> [String: String] {
        var found: [String: String] = [:]
        for (pointer, entry) in types[path.description] ?? [:]
        where JSONValue.same(document.value(atTokens: JSONValue.tokens(ofPointer: pointer)), entry.value) {
            found[pointer] = entry.type
        }
        return found
    }

    /// Records an import: the types of `notes` replace what was remembered for every
    /// document in `imported`.
    mutating func record(_ notes: [FirestoreTypeNote], imported: [DocumentPath]) {
        for path in imported { types[path.description] = nil }
        for note in notes where Self.names.contains(note.type) {
            types[note.document.description, default: [:]][note.pointer] = Entry(type: note.type, value: note.value)
        }
    }

    var json: JSONValue {
        .object(
            JSONObject(
                types.mapValues { pointers in
                    .object(JSONObject(pointers.mapValues { .object(["type": .string($0.type), "value": $0.value]) }))
                }))
    }
}
