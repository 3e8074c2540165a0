import CairnCore
import CairnMerge

extension FirestoreValue {
    /// The key that marks a typed value in `node-firestore-import-export`'s form.
    static let nodeTypeKey = "__datatype__"

    /// Reads a value of `node-firestore-import-export`'s form: JSON as it is (a number
    /// without a fraction an integer, any other a double), and `{"__datatype__": "timestamp"
    /// | "geopoint" | "documentReference", "value": …}`.
    init(node json: JSONValue, document: String, pointer: String) throws(CairnError) {
        func refuse(_ problem: String) -> CairnError {
            FirestoreExportFile.refusal("\(document) at \(pointer.isEmpty ? "/" : pointer): \(problem)")
        }
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .boolean(flag)
        case .integer(let number): self = .integer(number)
        case .double: self = .double(json)
        case .string(let text): self = .string(text)
        case .array(let values):
            var elements: [FirestoreValue] = []
            elements.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                elements.append(try FirestoreValue(node: value, document: document, pointer: pointer + "/\(index)"))
            }
            self = .array(elements)
        case .object(let object):
            guard let marker = object[Self.nodeTypeKey] else {
                self = .map(try Self.fields(node: object, document: document, pointer: pointer))
                return
            }
            let value = object["value"] ?? .null
            guard object.count == 2, case .string(let type) = marker else {
                throw refuse("a typed value is {\"__datatype__\": TYPE, \"value\": …}, not \(json.shortInlineText)")
            }
            switch type {
            case "timestamp":
                if case .string(let text) = value, FirestoreTimestamp(rfc3339: text) != nil {
                    self = .timestamp(text)
                    return
                }
                guard case .object(let parts) = value,
                    case .integer(let seconds)? = parts["_seconds"] ?? parts["seconds"],
                    case .integer(let nanoseconds) = parts["_nanoseconds"] ?? parts["nanoseconds"] ?? .integer(0),
                    parts.count <= 2, let timestamp = FirestoreTimestamp(seconds: seconds, nanoseconds: nanoseconds)
                else {
                    throw refuse(
                        "a timestamp's value is {\"_seconds\": S, \"_nanoseconds\": N} between the years 1 and 9999, not \(value.shortInlineText)"
                    )
                }
                self = .timestamp(timestamp.rfc3339)
            case "geopoint":
                guard case .object(let parts) = value, parts.count == 2,
                    let latitude = parts["_latitude"] ?? parts["latitude"], let longitude = parts["_longitude"] ?? parts["longitude"]
                else {
                    throw refuse("a geopoint's value is {\"_latitude\": …, \"_longitude\": …}, not \(value.shortInlineText)")
                }
                self = try Self.geoPoint(["latitude": latitude, "longitude": longitude], refuse: refuse)
            case "documentReference":
                guard case .string(let path) = value, FirestoreDatabase.isDocumentPath(path) else {
                    throw refuse("a documentReference's value is a document's path (collection/document/…), not \(value.shortInlineText)")
                }
                self = .reference(path)
            default:
                throw refuse("unknown __datatype__ \"\(type)\"; the types are timestamp, geopoint and documentReference")
            }
        }
    }

    /// The fields of a document or a map, in the Node tool's form.
    static func fields(node fields: JSONObject, document: String, pointer: String) throws(CairnError) -> [String: FirestoreValue] {
        var values: [String: FirestoreValue] = [:]
        values.reserveCapacity(fields.count)
        for (name, value) in fields {
            values[name] = try FirestoreValue(node: value, document: document, pointer: pointer + "/" + MergePolicy.escape(name))
        }
        return values
    }

    /// The value in the Node tool's form. Bytes, which it has no type for, are their base64
    /// text; a timestamp is its instant (seconds and nanoseconds).
    var node: JSONValue {
        switch self {
        case .null: .null
        case .boolean(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .double(let number): number
        case .timestamp(let text):
            if let timestamp = FirestoreTimestamp(rfc3339: text) {
                .object([
                    Self.nodeTypeKey: .string("timestamp"),
                    "value": .object(["_seconds": .integer(timestamp.seconds), "_nanoseconds": .integer(Int64(timestamp.nanoseconds))]),
                ])
            } else {
                .string(text)
            }
        case .string(let text), .bytes(let text): .string(text)
        case .reference(let path): .object([Self.nodeTypeKey: .string("documentReference"), "value": .string(path)])
        case .geoPoint(let latitude, let longitude):
            .object([Self.nodeTypeKey: .string("geopoint"), "value": .object(["_latitude": latitude, "_longitude": longitude])])
        case .array(let values): .array(values.map(\.node))
        case .map(let fields): Self.node(fields)
        }
    }

    /// Fields in the Node tool's form.
    static func node(_ fields: [String: FirestoreValue]) -> JSONValue {
        .object(JSONObject(fields.mapValues(\.node)))
    }
}
