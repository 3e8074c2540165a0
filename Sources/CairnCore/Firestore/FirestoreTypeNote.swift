import CairnMerge

/// A typed Firestore value an import kept at a place whose schema gives no Firestore type:
/// a timestamp, a reference, bytes or a geopoint kept as its text (or object). The store
/// remembers its type (``FirestoreRememberedTypes``), so an export from this copy writes it
/// as it came; another copy (a clone) writes a plain string (or map) until the schema
/// declares the type.
public struct FirestoreTypeNote: Hashable, Sendable, CustomStringConvertible {
    public var document: DocumentPath
    /// The JSON pointer of the value in the document.
    public var pointer: String
    /// The value's type, as the REST API names it (`timestampValue`).
    public var type: String

    public var description: String {
        let declaration = switch type {
        case "timestampValue": #""format": "date-time" (or "x-firestore": "timestamp")"#
        case "referenceValue": #""x-firestore": "reference""#
        case "bytesValue": #""x-firestore": "bytes""#
        default: #""x-firestore": "geopoint""#
        }
        return "\(document) at \(pointer): a \(type) where the schema set declares none; kept as its \(type == "geoPointValue" ? "object" : "text"), and this store remembers its type for export-firestore; declare \(declaration) there for every copy to know it"
    }
}
