/// One subschema of a ``CompiledSchema``, read once: its keywords found by name, and the
/// subschemas they hold numbered, so that a check reads no keyword's name and follows no
/// `$ref` by its pointer. A class: a check visits nodes by the thousand and takes each
/// without copying its fields.
final class SchemaNode: Sendable {
    /// What kind of schema the node is.
    enum Form: Sendable {
        /// `true`: every value is valid.
        case accepting
        /// `false`: no value is.
        case rejecting
        /// Neither an object nor a boolean (a number where a schema belongs).
        case malformed
        /// An object of keywords.
        case keywords
    }

    /// Where a `$ref` leads.
    enum Reference: Sendable {
        /// The node of the subschema it names.
        case node(Int)
        /// A reference that names nothing within the schema (as the schema writes it).
        case unresolved(String)
    }

    let form: Form
    /// Which keywords the validator reads the schema has: bit *n* for the
    /// ``SchemaValidator/Keyword`` of raw value *n*.
    let present: UInt64
    /// Their values, in the order of their keywords' raw values.
    let values: [JSONValue]
    let reference: Reference?
    /// `properties`: each name's node, as `.integer` (looked up as the schema's object is).
    let properties: JSONObject
    /// `required`'s names sorted by their bytes, each once, when all are ASCII strings (then
    /// an object of ASCII keys is checked against them in one walk); nil otherwise.
    let requiredInOrder: [String]?
    let patternProperties: [(pattern: String, node: Int)]
    /// `dependentSchemas`, in key order.
    let dependentSchemas: [(key: String, node: Int)]
    let additionalProperties: Int?
    let propertyNames: Int?
    let items: Int?
    let prefixItems: [Int]?
    let contains: Int?
    let allOf: [Int]?
    let anyOf: [Int]?
    let oneOf: [Int]?
    let not: Int?
    let ifSchema: Int?
    let thenSchema: Int?
    let elseSchema: Int?

    /// A node that holds no keywords (`true`, `false`, or no schema).
    convenience init(form: Form) {
        self.init(
            form: form, keywords: [], reference: nil, properties: JSONObject(), requiredInOrder: nil, patternProperties: [],
            dependentSchemas: [],
            additionalProperties: nil, propertyNames: nil, items: nil, prefixItems: nil, contains: nil,
            allOf: nil, anyOf: nil, oneOf: nil, not: nil, ifSchema: nil, thenSchema: nil, elseSchema: nil)
    }

    /// `keywords`: each keyword the schema has with its value, in the order of their raw values.
    init(
        form: Form, keywords: [(SchemaValidator.Keyword, JSONValue)], reference: Reference?, properties: JSONObject,
        requiredInOrder: [String]?,
        patternProperties: [(pattern: String, node: Int)], dependentSchemas: [(key: String, node: Int)],
        additionalProperties: Int?, propertyNames: Int?, items: Int?, prefixItems: [Int]?, contains: Int?,
        allOf: [Int]?, anyOf: [Int]?, oneOf: [Int]?, not: Int?, ifSchema: Int?, thenSchema: Int?, elseSchema: Int?
    ) {
        self.form = form
        present = keywords.reduce(0) { $0 | UInt64(1) << UInt64($1.0.rawValue) }
        values = keywords.map(\.1)
        self.reference = reference
        self.properties = properties
        self.requiredInOrder = requiredInOrder
        self.patternProperties = patternProperties
        self.dependentSchemas = dependentSchemas
        self.additionalProperties = additionalProperties
        self.propertyNames = propertyNames
        self.items = items
        self.prefixItems = prefixItems
        self.contains = contains
        self.allOf = allOf
        self.anyOf = anyOf
        self.oneOf = oneOf
        self.not = not
        self.ifSchema = ifSchema
        self.thenSchema = thenSchema
        self.elseSchema = elseSchema
    }

    /// The value of `keyword` in this schema, if it has it.
    subscript(keyword: SchemaValidator.Keyword) -> JSONValue? {
        let bit = UInt64(1) << UInt64(keyword.rawValue)
        guard present & bit != 0 else { return nil }
        return values[(present & (bit - 1)).nonzeroBitCount]
    }

    /// The node ``properties`` gives `name`, if the schema names it.
    func property(_ name: String) -> Int? {
        guard case .integer(let node)? = properties[name] else { return nil }
        return Int(node)
    }

    /// The node ``properties`` gives the field at `position` in ``properties``.
    func property(at position: Int) -> Int? {
        guard case .integer(let node) = properties[position].value else { return nil }
        return Int(node)
    }

    /// Whether `object`, whose keys are all ASCII, has every ``requiredInOrder`` name: one walk
    /// of both sorted lists. Nil when the schema's names cannot be walked so.
    func holdsRequired(_ object: JSONObject) -> Bool? {
        guard let names = requiredInOrder else { return nil }
        var position = 0
        for name in names {
            while position < object.count, JSONObject.compare(object[position].key, name) < 0 { position += 1 }
            guard position < object.count, JSONObject.compare(object[position].key, name) == 0 else { return false }
            position += 1
        }
        return true
    }
}
