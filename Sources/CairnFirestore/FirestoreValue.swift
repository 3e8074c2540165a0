import CairnCore
import CairnMerge

/// A value as Firestore holds it: one of the types of its REST API's `Value`.
///
/// Strings of the typed kinds keep the text of the REST form: a timestamp its RFC 3339 text,
/// bytes their base64 text. A reference is the referenced document's path within its
/// database (`users/u1/books/b1`), the form the export tools of Node write and the one Cairn
/// keeps; the REST form's full name is made and read by ``FirestoreExportFile``.
public indirect enum FirestoreValue: Hashable, Sendable {
    case null
    case boolean(Bool)
    case integer(Int64)
    /// A double as written: a JSON number (`JSONValue/integer(_:)` for `3`,
    /// `JSONValue/double(_:)` for `3.5`), or the text `NaN`, `Infinity` or `-Infinity`.
    case double(JSONValue)
    /// RFC 3339 text, as written.
    case timestamp(String)
    case string(String)
    /// Base64 text, as written.
    case bytes(String)
    /// The referenced document's path within its database.
    case reference(String)
    /// Each a JSON number, as written.
    case geoPoint(latitude: JSONValue, longitude: JSONValue)
    case array([FirestoreValue])
    case map([String: FirestoreValue])

    /// The name of the type, as Firestore's REST API names the value's field (`timestampValue`).
    public var typeName: String {
        switch self {
        case .null: "nullValue"
        case .boolean: "booleanValue"
        case .integer: "integerValue"
        case .double: "doubleValue"
        case .timestamp: "timestampValue"
        case .string: "stringValue"
        case .bytes: "bytesValue"
        case .reference: "referenceValue"
        case .geoPoint: "geoPointValue"
        case .array: "arrayValue"
        case .map: "mapValue"
        }
    }

    /// The JSON type the value is kept as in a document (`string` for a timestamp), as a
    /// schema's `type` names it.
    var jsonType: String {
        switch self {
        case .null: "null"
        case .boolean: "boolean"
        case .integer: "integer"
        case .double(let number): if case .integer = number { "integer" } else { "number" }
        case .timestamp, .string, .bytes, .reference: "string"
        case .geoPoint, .map: "object"
        case .array: "array"
        }
    }
}
