/// A JSON Schema (draft 2020-12) that documents are checked against.
///
/// Keywords checked: `type`, `enum`, `const`, `multipleOf`, `minimum`, `maximum`,
/// `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`, `pattern`, `items`,
/// `prefixItems`, `contains`, `minContains`, `maxContains`, `minItems`, `maxItems`,
/// `uniqueItems`, `required`, `dependentRequired`, `properties`, `patternProperties`,
/// `additionalProperties`, `propertyNames`, `dependentSchemas`, `minProperties`,
/// `maxProperties`, `if`/`then`/`else`, `allOf`, `anyOf`, `oneOf`, `not`, `$defs` and `$ref`
/// within the schema (`#`, `#/$defs/…`, any JSON pointer), and boolean schemas.
///
/// Not claimed: `$id`, `$anchor`, `$dynamicRef`, `$dynamicAnchor` and references to other
/// documents; `unevaluatedProperties`, `unevaluatedItems`; `format` and the `content*`
/// keywords (annotations only, as the draft's default); `$vocabulary`. Annotations (`title`,
/// `description`, `default`, `x-merge`, …) are ignored.
public struct Schema: Sendable {
    /// The schema as parsed.
    public let root: JSONValue
    /// The schema as checks walk it, read once.
    private let compiled: CompiledSchema
    /// Its regular expressions, compiled as checks need them.
    private let patterns = SchemaPatterns()

    /// Nesting of `$ref` beyond which a schema is taken to loop.
    package static let maxDepth = 64

    public init(_ root: JSONValue) {
        self.root = root
        compiled = CompiledSchema(root)
    }

    /// Every way `instance` breaks the schema; [] when it is valid.
    public func validate(_ instance: JSONValue) -> [ValidationError] {
        var validator = SchemaValidator(schema: compiled, patterns: patterns)
        validator.tracksPaths = false
        guard !validator.errors(instance).isEmpty else { return [] }
        validator.tracksPaths = true
        return validator.errors(instance)
    }

    /// Whether `instance` is valid.
    public func accepts(_ instance: JSONValue) -> Bool {
        validate(instance).isEmpty
    }
}

/// One way an instance breaks a schema: where in the instance, which rule (the schema
/// keyword and where it is), and a sentence.
public struct ValidationError: Hashable, Sendable, CustomStringConvertible {
    /// The JSON pointer of the offending value in the instance (empty: the whole instance).
    public var pointer: String
    /// The keyword that failed (`minimum`, `required`, …).
    public var keyword: String
    /// Where the keyword is in the schema, as a JSON pointer.
    public var schemaPath: String
    /// What is wrong, in a few words.
    public var message: String

    public var description: String {
        "\(pointer.isEmpty ? "/" : pointer): \(message) (\(keyword) at \(schemaPath.isEmpty ? "/" : schemaPath))"
    }
}
