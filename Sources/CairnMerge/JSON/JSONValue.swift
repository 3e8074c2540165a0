/// A JSON value as Cairn stores it.
///
/// Numbers keep their kind: a number written without a fraction or an exponent is an
/// `integer` (the whole `Int64` range), any other is a `double`. An object's fields are a
/// ``JSONObject``: looked up like a dictionary's, kept in canonical order (see
/// ``canonicalBytes()``).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The object's fields, or nil when the value is not an object.
    public var objectValue: JSONObject? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The value of a field of an object; nil for a missing field or a value that is not an object.
    public func field(_ name: String) -> JSONValue? {
        objectValue?[name]
    }

    /// The name of the value's JSON type, as error messages say it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
