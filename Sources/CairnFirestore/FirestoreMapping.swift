import CairnCore
import CairnMerge

/// Cairn's JSON documents to Firestore's typed values and back, as the kind's schema directs
/// (see ``FirestoreSchemaPlace/firestoreType(_:jsonType:)``). Where the schema says nothing:
/// an integer literal is an `integerValue`, any other number a `doubleValue`, a string a
/// `stringValue`, an object a `mapValue`, an array an `arrayValue`. A string the schema
/// makes a timestamp, reference or bytes that is not one (not RFC 3339 text, not a document
/// path, not base64) stays a `stringValue`, an object that is not a point a `mapValue`, so
/// every document comes back as it was.
struct FirestoreMapping {
    /// The document mapped, for messages and notes.
    let document: DocumentPath
    /// The kind's schema; nil when no kind describes the document.
    let schema: JSONValue?
    /// The types an import remembered for this document's values where the schema gives
    /// another (``FirestoreRememberedTypes``), by pointer, as the REST API names them: an
    /// export writes them as such while the value still is one.
    let remembered: [String: String]

    init(document: DocumentPath, schema: JSONValue?, remembered: [String: String] = [:]) {
        self.document = document
        self.schema = schema
        self.remembered = remembered
    }

    // MARK: To Firestore

    /// A document's fields as Firestore values.
    func fields(of value: JSONValue) -> [String: FirestoreValue] {
        guard case .map(let fields) = firestore(value, at: FirestoreSchemaPlace(root: schema), pointer: "", asDocument: true) else {
            return [:]
        }
        return fields
    }

    private func firestore(_ value: JSONValue, at place: FirestoreSchemaPlace, pointer: String, asDocument: Bool = false) -> FirestoreValue
    {
        let type = value.typeName
        let applying = place.applying(to: type)
        if let named = remembered[pointer], let kept = Self.value(value, as: named) { return kept }
        // A map remembered as one is never made a point.
        let declared = remembered[pointer] == "mapValue" ? nil : FirestoreSchemaPlace.firestoreType(applying, jsonType: type)
        switch value {
        case .null:
            return .null
        case .bool(let flag):
            return .boolean(flag)
        case .integer(let number):
            return declared == .double ? .double(value) : .integer(number)
        case .double:
            return .double(value)
        case .string(let text):
            switch declared {
            case .timestamp? where FirestoreTimestamp(rfc3339: text) != nil: return .timestamp(text)
            case .reference? where FirestoreDatabase.isDocumentPath(text): return .reference(text)
            case .bytes? where FirestoreValue.isBase64(text): return .bytes(text)
            default: return .string(text)
            }
        case .array(let elements):
            return .array(
                elements.enumerated().map { index, element in
                    firestore(element, at: place.element(index, of: applying), pointer: pointer + "/\(index)")
                })
        case .object(let object):
            if !asDocument, declared == .geopoint, object.count == 2, let latitude = object["latitude"],
                let longitude = object["longitude"],
                let north = latitude.number, let east = longitude.number, FirestoreValue.isPoint(north, east)
            {
                return .geoPoint(latitude: latitude, longitude: longitude)
            }
            var fields: [String: FirestoreValue] = [:]
            fields.reserveCapacity(object.count)
            for (key, field) in object {
                fields[key] = firestore(field, at: place.field(key, of: applying), pointer: pointer + "/" + MergePolicy.escape(key))
            }
            return .map(fields)
        }
    }

    /// A leaf value as the Firestore type `name` (a REST name), when it is one: a string as a
    /// `stringValue`, a timestamp (RFC 3339 text), a reference (a document path) or bytes
    /// (base64); a number as an `integerValue` (an integer literal) or a `doubleValue`; an
    /// object as a `geoPointValue` (a point in range). Nil otherwise, and for maps and arrays,
    /// which are mapped field by field.
    static func value(_ value: JSONValue, as name: String) -> FirestoreValue? {
        switch (name, value) {
        case ("stringValue", .string(let text)): .string(text)
        case ("timestampValue", .string(let text)) where FirestoreTimestamp(rfc3339: text) != nil: .timestamp(text)
        case ("referenceValue", .string(let text)) where FirestoreDatabase.isDocumentPath(text): .reference(text)
        case ("bytesValue", .string(let text)) where FirestoreValue.isBase64(text): .bytes(text)
        case ("integerValue", .integer(let number)): .integer(number)
        case ("doubleValue", .integer), ("doubleValue", .double): .double(value)
        case ("geoPointValue", .object(let object)):
            if object.count == 2, let latitude = object["latitude"], let longitude = object["longitude"],
                let north = latitude.number, let east = longitude.number, FirestoreValue.isPoint(north, east)
            {
                .geoPoint(latitude: latitude, longitude: longitude)
            } else {
                nil
            }
        default: nil
        }
    }

    /// Where an export of `json` (this mapping, remembering nothing) would give another type
    /// than `file` has: each place's pointer and the file's type (REST name), outermost first.
    static func differences(_ file: FirestoreValue, _ exported: FirestoreValue, at pointer: String = "") -> [(
        pointer: String, type: String
    )] {
        switch (file, exported) {
        case (.map(let left), .map(let right)):
            return left.keys.sorted().flatMap { key in
                right[key].map { differences(left[key]!, $0, at: pointer + "/" + MergePolicy.escape(key)) } ?? []
            }
        case (.array(let left), .array(let right)):
            return zip(left, right).enumerated().flatMap { index, pair in differences(pair.0, pair.1, at: pointer + "/\(index)") }
        default:
            return file.typeName == exported.typeName ? [] : [(pointer, file.typeName)]
        }
    }

    /// The value at `pointer` (as ``differences(_:_:at:)`` names places) in `value`.
    static func value(at pointer: String, in value: FirestoreValue) -> FirestoreValue? {
        var here = value
        for token in JSONValue.tokens(ofPointer: pointer) {
            switch here {
            case .map(let fields):
                guard let next = fields[token] else { return nil }
                here = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                here = elements[index]
            default: return nil
            }
        }
        return here
    }

    // MARK: From Firestore

    /// A document from its Firestore fields. Refuses what JSON cannot hold (NaN, Infinity).
    func document(from fields: [String: FirestoreValue]) throws(CairnError) -> JSONValue {
        try json(.map(fields), at: FirestoreSchemaPlace(root: schema), pointer: "")
    }

    private func json(_ value: FirestoreValue, at place: FirestoreSchemaPlace, pointer: String) throws(CairnError) -> JSONValue {
        let applying = place.applying(to: value.jsonType)
        let declared = FirestoreSchemaPlace.firestoreType(applying, jsonType: value.jsonType)
        switch value {
        case .null:
            return .null
        case .boolean(let flag):
            return .bool(flag)
        case .integer(let number):
            return .integer(number)
        case .double(let number):
            return try Self.number(number, declared: declared) { problem in
                FirestoreExportFile.refusal("\(document) at \(pointer.isEmpty ? "/" : pointer): \(problem)")
            }
        case .string(let text):
            return .string(text)
        case .timestamp(let text):
            return .string(text)
        case .bytes(let text):
            return .string(text)
        case .reference(let path):
            return .string(path)
        case .geoPoint(let latitude, let longitude):
            // Coordinates as written: Firestore's are doubles whatever the literal, so either comes back a geopoint.
            return .object(["latitude": latitude, "longitude": longitude])
        case .array(let elements):
            var values: [JSONValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                values.append(try json(element, at: place.element(index, of: applying), pointer: pointer + "/\(index)"))
            }
            return .array(values)
        case .map(let fields):
            var object: [String: JSONValue] = [:]
            object.reserveCapacity(fields.count)
            for (key, field) in fields {
                object[key] = try json(field, at: place.field(key, of: applying), pointer: pointer + "/" + MergePolicy.escape(key))
            }
            return .object(JSONObject(object))
        }
    }

    /// A `doubleValue` as a JSON number: as written when it has a fraction or an exponent;
    /// written as an integer, it stays an integer where the schema declares integers only
    /// (or `"x-firestore": "double"`, which exports an integer literal as a double), and
    /// becomes a double elsewhere, so that it is exported back as a `doubleValue`.
    static func number(_ number: JSONValue, declared: FirestoreType?, refuse: (String) -> CairnError) throws(CairnError) -> JSONValue {
        switch number {
        case .integer(let whole):
            if declared == .double || declared == .integer { return number }
            let double = Double(whole)
            // Beyond 2^53 a double would not hold it exactly: kept as written.
            return Int64(exactly: double) == whole ? .double(double) : number
        case .double:
            return number
        case .string(let text):
            throw refuse(
                "doubleValue \(text) cannot be kept: JSON has no NaN or Infinity; store null or a string there in Firestore, then export again"
            )
        default:
            throw refuse("doubleValue \(number.shortInlineText) is not a number")
        }
    }
}
