/// A kind of progress that answers shared content, as its schema declares it:
/// `"x-cairn": {"pins": {"collection": "assessments", "item": "/assessment_id", "version": "/content_version"}}`.
///
/// A document of the kind names its item in the field `item` points to; Cairn fills the field
/// `version` points to with the commit of the item the device holds when the document is
/// written, and a sync checks that commit against the server's before it pushes.
public struct ContentPin: Hashable, Sendable {
    /// Why an annotation cannot be read: where in the schema, and what it should be.
    public struct Problem: Error, Hashable, Sendable {
        /// The JSON pointer of the offending value in the schema file.
        public var pointer: String
        public var message: String
    }

    /// The collection of the content (`assessments`): an ID.
    public var collection: String
    /// The JSON pointer of the top-level field holding the item's ID (`/assessment_id`).
    public var itemPointer: String
    /// The JSON pointer of the top-level field Cairn fills with the version (`/content_version`).
    public var versionPointer: String

    /// The name of the field holding the item's ID (`assessment_id`).
    public var itemField: String { Self.field(of: itemPointer) ?? "" }
    /// The name of the field holding the version (`content_version`).
    public var versionField: String { Self.field(of: versionPointer) ?? "" }

    /// What an annotation should look like, for messages.
    public static let form =
        "x-cairn.pins is {\"collection\": \"assessments\", \"item\": \"/assessment_id\", \"version\": \"/content_version\"}: the content's collection, and pointers to two top-level fields"

    public init(collection: String, itemPointer: String, versionPointer: String) {
        self.collection = collection
        self.itemPointer = itemPointer
        self.versionPointer = versionPointer
    }

    /// Reads the annotation (the value of `x-cairn.pins`).
    public init(annotation: JSONValue) throws(Problem) {
        let base = "/x-cairn/pins"
        guard case .object(let fields) = annotation else { throw Problem(pointer: base, message: Self.form) }
        for key in fields.keys.sorted() where !["collection", "item", "version"].contains(key) {
            throw Problem(pointer: base + "/" + MergePolicy.escape(key), message: "x-cairn.pins.\(key) is not read by Cairn; " + Self.form)
        }
        guard case .string(let collection)? = fields["collection"] else {
            throw Problem(
                pointer: base + "/collection", message: "x-cairn.pins.collection is the content's collection, a string like \"assessments\""
            )
        }
        do {
            try DocumentID.validate(collection, in: collection)
        } catch {
            throw Problem(pointer: base + "/collection", message: "x-cairn.pins.collection is not an ID: \(error.explanation)")
        }
        var pointers: [String] = []
        for (key, what) in [("item", "the item's ID"), ("version", "the version Cairn fills")] {
            guard case .string(let pointer)? = fields[key], Self.field(of: pointer) != nil else {
                throw Problem(
                    pointer: base + "/" + key,
                    message:
                        "x-cairn.pins.\(key) is the JSON pointer of the top-level field holding \(what), like \"/\(key == "item" ? "assessment_id" : "content_version")\""
                )
            }
            pointers.append(pointer)
        }
        guard Self.field(of: pointers[0]) != Self.field(of: pointers[1]) else {
            throw Problem(
                pointer: base + "/version",
                message: "x-cairn.pins.version points to the same field as x-cairn.pins.item; the version needs a field of its own")
        }
        self.init(collection: collection, itemPointer: pointers[0], versionPointer: pointers[1])
    }

    /// The annotation's form: the value of `x-cairn.pins`.
    public var annotation: JSONValue {
        .object(["collection": .string(collection), "item": .string(itemPointer), "version": .string(versionPointer)])
    }

    /// The item a document names: the item field's value when it is a string; nil otherwise.
    public func item(of document: JSONValue) -> String? {
        guard case .string(let item)? = document.field(itemField) else { return nil }
        return item
    }

    /// The version a document is pinned to: the version field's value when it is a string; nil otherwise.
    public func version(of document: JSONValue) -> String? {
        guard case .string(let version)? = document.field(versionField) else { return nil }
        return version
    }

    /// The field a pointer to a top-level field names (`/a~1b` → `a/b`); nil for any other
    /// pointer (the whole document, or a field deeper down).
    static func field(of pointer: String) -> String? {
        guard pointer.hasPrefix("/") else { return nil }
        let token = pointer.dropFirst()
        guard !token.isEmpty, !token.contains("/") else { return nil }
        return String(token).replacing("~1", with: "/").replacing("~0", with: "~")
    }
}
