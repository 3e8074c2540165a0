/// The Firestore type a schema gives the values of a property with `"x-firestore"`, where
/// JSON alone cannot say it: a string that is a timestamp, a document reference or bytes, an
/// object that is a geographical point, a number that is an integer or a double.
///
/// ```json
/// "openedAt": {"type": "string", "format": "date-time"},
/// "book": {"type": "string", "x-firestore": "reference"},
/// "place": {"type": "object", "x-firestore": "geopoint"}
/// ```
///
/// The annotation asks nothing of documents: it directs `cairn export-firestore` and
/// `import-firestore`, which map every value of the place to and from that type.
public enum FirestoreType: String, Sendable, Hashable, CaseIterable {
    /// A string of RFC 3339 text (`2026-11-22T08:00:00Z`): a `timestampValue`. A string with
    /// `"format": "date-time"` is one without the annotation.
    case timestamp
    /// A string holding a document's path (`users/u1/books/b1`): a `referenceValue`.
    case reference
    /// A string holding base64 text: a `bytesValue`.
    case bytes
    /// An object `{"latitude": …, "longitude": …}`: a `geoPointValue`.
    case geopoint
    /// A number kept as an `integerValue` (an integer literal), as without the annotation.
    case integer
    /// A number kept as a `doubleValue`, an integer literal too (without the annotation, an
    /// integer literal is an `integerValue` even where `"type": "number"`).
    case double

    /// The annotation's keyword.
    public static let keyword = "x-firestore"

    /// The JSON types a value of this Firestore type is kept as.
    public var jsonTypes: Set<String> {
        switch self {
        case .timestamp, .reference, .bytes: ["string"]
        case .geopoint: ["object"]
        case .integer, .double: ["integer", "number"]
        }
    }
}
