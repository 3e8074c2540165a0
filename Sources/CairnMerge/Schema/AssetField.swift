/// A top-level field that holds an asset, as its schema declares it:
/// `"x-cairn": {"assets": {"audioAsset": {"maxBytes": 52428800}}}`.
///
/// The field's value is an ``AssetReference`` (`{"oid": …, "size": …, "mediaType": …}`) or
/// null; the bytes live beside the store (Git LFS), never in the document.
public struct AssetField: Hashable, Sendable {
    /// Why an annotation cannot be read: where in the schema, and what it should be.
    public struct Problem: Error, Hashable, Sendable {
        /// The JSON pointer of the offending value in the schema file.
        public var pointer: String
        public var message: String
    }

    /// The field's name: a top-level property, and a file name (`audioAsset`).
    public var name: String
    /// The largest asset the field takes, in bytes; nil: the store's limit.
    public var maxBytes: Int64?

    /// What an annotation should look like, for messages.
    public static let form =
        "x-cairn.assets is {\"field\": {\"maxBytes\": N}, …}: each a top-level property holding an asset, with an optional size limit in bytes"

    public init(name: String, maxBytes: Int64? = nil) {
        self.name = name
        self.maxBytes = maxBytes
    }

    /// Reads the annotation (the value of `x-cairn.assets`) of `schema`, whose top-level
    /// properties must declare every field it names.
    public static func fields(annotation: JSONValue, schema: JSONValue) throws(Problem) -> [String: AssetField] {
        let base = "/x-cairn/assets"
        guard case .object(let declared) = annotation else { throw Problem(pointer: base, message: form) }
        var fields: [String: AssetField] = [:]
        for (name, options) in declared.sorted(by: { $0.key < $1.key }) {
            let pointer = base + "/" + MergePolicy.escape(name)
            guard isFileName(name) else {
                throw Problem(
                    pointer: pointer,
                    message:
                        "x-cairn.assets.\(name): an asset field's name is also a file name in the store; use letters, digits, '_', '-' and '.', at most 100 of them"
                )
            }
            guard schema.field("properties")?.field(name) != nil else {
                throw Problem(pointer: pointer, message: "x-cairn.assets names \(name), which the schema's properties do not declare")
            }
            guard case .object(let keys) = options else { throw Problem(pointer: pointer, message: form) }
            for key in keys.keys.sorted() where key != "maxBytes" {
                throw Problem(
                    pointer: pointer + "/" + MergePolicy.escape(key), message: "x-cairn.assets.\(name).\(key) is not read by Cairn; " + form
                )
            }
            var limit: Int64?
            if let value = keys["maxBytes"] {
                guard case .integer(let bytes) = value, bytes >= 1 else {
                    throw Problem(
                        pointer: pointer + "/maxBytes", message: "x-cairn.assets.\(name).maxBytes is a whole number of bytes, 1 or more")
                }
                limit = bytes
            }
            fields[name] = AssetField(name: name, maxBytes: limit)
        }
        return fields
    }

    /// Whether `name` can be a file name of the store on every platform.
    static func isFileName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 100, name != ".", name != "..", !name.hasPrefix(".") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "-" || scalar == "."
        }
    }
}
