import CairnCore
import CairnMerge

extension FirestoreValue {
    /// The names of the REST API's value types, as messages list them.
    static let restTypeNames =
        "nullValue, booleanValue, integerValue, doubleValue, timestampValue, stringValue, bytesValue, referenceValue, geoPointValue, arrayValue, mapValue"

    /// Reads a value of Firestore's REST form (`{"integerValue": "83"}`) found at `pointer` of
    /// the document at `document` of `database` (references name documents of that database).
    init(rest json: JSONValue, database: FirestoreDatabase, document: String, pointer: String) throws(CairnError) {
        func refuse(_ problem: String) -> CairnError {
            FirestoreExportFile.refusal("\(document) at \(pointer.isEmpty ? "/" : pointer): \(problem)")
        }
        guard case .object(let object) = json, object.count == 1, let (type, content) = object.first else {
            throw refuse(
                "a Firestore value is an object with one field naming its type (\(Self.restTypeNames)), not \(json.shortInlineText)")
        }
        switch (type, content) {
        case ("nullValue", .null), ("nullValue", .string("NULL_VALUE")):
            self = .null
        case ("booleanValue", .bool(let flag)):
            self = .boolean(flag)
        case ("integerValue", .integer(let number)):
            self = .integer(number)
        case ("integerValue", .string(let text)):
            guard let number = Int64(text) else {
                let digits = text.drop { $0 == "-" }
                if !digits.isEmpty, text.dropFirst(text.hasPrefix("-") ? 1 : 0).allSatisfy({ $0.isASCII && $0.isNumber }) {
                    throw refuse(
                        "integerValue \(text) is outside the 64-bit range Cairn keeps exactly (and Firestore holds); keep it as a string")
                }
                throw refuse("integerValue \(content.shortInlineText) is not a decimal integer")
            }
            self = .integer(number)
        case ("doubleValue", .integer), ("doubleValue", .double):
            self = .double(content)
        case ("doubleValue", .string(let text)) where ["NaN", "Infinity", "-Infinity"].contains(text):
            self = .double(content)
        case ("timestampValue", .string(let text)):
            guard FirestoreTimestamp(rfc3339: text) != nil else {
                throw refuse(
                    "timestampValue \(content.shortInlineText) is not an RFC 3339 time between the years 1 and 9999 (like 2026-11-22T08:00:00Z)"
                )
            }
            self = .timestamp(text)
        case ("stringValue", .string(let text)):
            self = .string(text)
        case ("bytesValue", .string(let text)):
            guard Self.isBase64(text) else { throw refuse("bytesValue \(content.shortInlineText) is not base64 text") }
            self = .bytes(text)
        case ("referenceValue", .string(let name)):
            guard let (referenced, path) = FirestoreDatabase.parse(name: name) else {
                throw refuse("referenceValue \(content.shortInlineText) is not a document name (projects/P/databases/D/documents/PATH)")
            }
            guard referenced == database else {
                throw refuse(
                    "referenceValue \(name) names a document of \(referenced), and the export is of \(database); Cairn keeps references within one database"
                )
            }
            self = .reference(path)
        case ("geoPointValue", .object(let point)):
            self = try Self.geoPoint(point, refuse: refuse)
        case ("arrayValue", .object(let array)):
            guard array.keys.allSatisfy({ $0 == "values" }) else {
                throw refuse("arrayValue holds \"values\" only, not \(content.shortInlineText)")
            }
            guard case .array(let values) = array["values"] ?? .array([]) else {
                throw refuse("arrayValue.values is an array, not \(array["values"]!.shortInlineText)")
            }
            var elements: [FirestoreValue] = []
            elements.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                elements.append(try FirestoreValue(rest: value, database: database, document: document, pointer: pointer + "/\(index)"))
            }
            self = .array(elements)
        case ("mapValue", .object(let map)):
            guard map.keys.allSatisfy({ $0 == "fields" }) else {
                throw refuse("mapValue holds \"fields\" only, not \(content.shortInlineText)")
            }
            guard case .object(let fields) = map["fields"] ?? .object([:]) else {
                throw refuse("mapValue.fields is an object, not \(map["fields"]!.shortInlineText)")
            }
            self = .map(try Self.fields(rest: fields, database: database, document: document, pointer: pointer))
        case ("nullValue", _), ("booleanValue", _), ("integerValue", _), ("doubleValue", _), ("timestampValue", _), ("stringValue", _),
            ("bytesValue", _), ("referenceValue", _), ("geoPointValue", _), ("arrayValue", _), ("mapValue", _):
            if type == "doubleValue", case .string(let text) = content {
                throw refuse("doubleValue \(text) is not a number; a doubleValue is a JSON number, or NaN, Infinity or -Infinity")
            }
            throw refuse("\(type) cannot hold \(content.shortInlineText)")
        default:
            throw refuse("unknown Firestore value type \"\(type)\"; the types are \(Self.restTypeNames)")
        }
    }

    /// The fields of a document or a map, in REST form.
    static func fields(rest fields: JSONObject, database: FirestoreDatabase, document: String, pointer: String) throws(CairnError)
        -> [String: FirestoreValue]
    {
        var values: [String: FirestoreValue] = [:]
        values.reserveCapacity(fields.count)
        for (name, value) in fields {
            values[name] = try FirestoreValue(
                rest: value, database: database, document: document, pointer: pointer + "/" + MergePolicy.escape(name))
        }
        return values
    }

    /// A `geoPointValue`'s latitude and longitude: JSON numbers in range; one left out is 0,
    /// as the REST form leaves out a coordinate of 0.
    static func geoPoint(_ point: JSONObject, refuse: (String) -> CairnError) throws(CairnError) -> FirestoreValue {
        guard point.keys.allSatisfy({ $0 == "latitude" || $0 == "longitude" }) else {
            throw refuse("geoPointValue holds latitude and longitude only, not \(JSONValue.object(point).shortInlineText)")
        }
        let latitude = point["latitude"] ?? .double(0)
        let longitude = point["longitude"] ?? .double(0)
        guard let north = latitude.number, let east = longitude.number, isPoint(north, east) else {
            throw refuse(
                "geoPointValue \(JSONValue.object(point).shortInlineText) is not a latitude within ±90 and a longitude within ±180")
        }
        return .geoPoint(latitude: latitude, longitude: longitude)
    }

    /// The value in Firestore's REST form; references as full names in `database`.
    func rest(database: FirestoreDatabase) -> JSONValue {
        switch self {
        case .null: .object(["nullValue": .null])
        case .boolean(let flag): .object(["booleanValue": .bool(flag)])
        case .integer(let number): .object(["integerValue": .string(String(number))])
        case .double(let number): .object(["doubleValue": Self.restDouble(number)])
        case .timestamp(let text): .object(["timestampValue": .string(text)])
        case .string(let text): .object(["stringValue": .string(text)])
        case .bytes(let text): .object(["bytesValue": .string(text)])
        case .reference(let path): .object(["referenceValue": .string(database.name(of: path))])
        case .geoPoint(let latitude, let longitude):
            .object(["geoPointValue": .object(["latitude": latitude, "longitude": longitude])])
        case .array(let values):
            .object(["arrayValue": values.isEmpty ? .object([:]) : .object(["values": .array(values.map { $0.rest(database: database) })])])
        case .map(let fields):
            .object(["mapValue": fields.isEmpty ? .object([:]) : .object(["fields": Self.rest(fields, database: database)])])
        }
    }

    /// A double as Firestore's REST API writes it: a whole one without a fraction (`40`, not
    /// `40.0`), within the integers a double holds exactly.
    static func restDouble(_ number: JSONValue) -> JSONValue {
        if case .double(let value) = number, value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return .integer(Int64(value)) }
        return number
    }

    /// Fields in REST form.
    static func rest(_ fields: [String: FirestoreValue], database: FirestoreDatabase) -> JSONValue {
        .object(JSONObject(fields.mapValues { $0.rest(database: database) }))
    }

    /// Whether a latitude and a longitude name a point: within ±90 and ±180.
    static func isPoint(_ latitude: Double, _ longitude: Double) -> Bool {
        abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Whether `text` is base64 (RFC 4648's alphabet, padded), as Firestore writes bytes.
    static func isBase64(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { byte in
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }
}
