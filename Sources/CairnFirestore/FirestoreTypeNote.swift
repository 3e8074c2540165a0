import CairnCore
import CairnMerge

/// A value an import brought in as a Firestore type that the schema set would not give it
/// back as: a timestamp, a reference, bytes or a point where the schema types nothing, a
/// plain string where it says date-time, an integer where it says `"x-firestore": "double"`.
/// The value is kept as JSON keeps it, and the store remembers its type
/// (`FirestoreRememberedTypes`), so an export from this copy writes it as it came; another
/// copy (a clone) writes what the schema says until the schema says the file's type.
public struct FirestoreTypeNote: Hashable, Sendable, CustomStringConvertible {
    public var document: DocumentPath
    /// The JSON pointer of the value in the document.
    public var pointer: String
    /// The value's type in the file, as the REST API names it (`timestampValue`).
    public var type: String
    /// The type the schema set gives it (`stringValue`).
    public var schemaType: String
    /// The value as the store keeps it: the type is remembered for this value only.
    public var value: JSONValue

    public var description: String {
        let declaration =
            switch type {
            case "timestampValue": #""format": "date-time" (or "x-firestore": "timestamp")"#
            case "referenceValue": #""x-firestore": "reference""#
            case "bytesValue": #""x-firestore": "bytes""#
            case "geoPointValue": #""x-firestore": "geopoint""#
            case "integerValue": #""x-firestore": "integer""#
            case "doubleValue": #""x-firestore": "double""#
            default: "no date-time format and no \"x-firestore\""
            }
        func article(_ name: String) -> String { (name.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + name }
        return
            "\(document) at \(pointer.isEmpty ? "/" : pointer): \(article(type)) where the schema set gives \(article(schemaType)); kept, and this store remembers its type for export-firestore; declare \(declaration) there for every copy to know it"
    }
}
