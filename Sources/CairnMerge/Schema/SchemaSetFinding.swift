/// One thing wrong with a schema set, as ``SchemaSetCheck`` finds it: the file, the JSON
/// pointer of the offending value in it, the rule, and a sentence that says what to do.
public struct SchemaSetFinding: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The rules of the check. The raw value is the id a finding line prints.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        /// The file is not JSON, or not a JSON object.
        case json
        /// `x-cairn.path` is missing or breaks the rules of document paths and IDs.
        case pathPattern = "path-pattern"
        /// Two kinds of document match the same paths, equally specifically.
        case pathOverlap = "path-overlap"
        /// An `x-merge` word (or key, or option) that does not exist.
        case mergeWord = "merge-word"
        /// An `x-merge` annotation that cannot be read, or that is never read where it is.
        case mergeAnnotation = "merge-annotation"
        /// A policy on a value of a type it cannot merge.
        case policyType = "policy-type"
        /// A policy or a retention orders by a field that is not declared, or is not a stamp.
        case stampField = "stamp-field"
        /// A derived field reads a map, a field or documents the set does not declare.
        case deriveSource = "derive-source"
        /// An `x-cairn` annotation that cannot be read.
        case cairnAnnotation = "cairn-annotation"
        /// A keyword the validator does not check (nor an annotation): documents are not held to it.
        case unclaimedKeyword = "unclaimed-keyword"
        /// An `x-firestore` that is not a Firestore type Cairn maps, or on a value that cannot hold it.
        case firestoreType = "firestore-type"
        /// `migrations.json` cannot be read.
        case migrations
        /// Anything else the set cannot be used for.
        case setRefused = "set-refused"
    }

    /// The file of the set (`book.schema.json`).
    public var file: String
    /// The JSON pointer of the offending value in the file; empty for the whole file.
    public var pointer: String
    public var rule: Rule
    public var message: String

    public init(file: String, pointer: String, rule: Rule, message: String) {
        self.file = file
        self.pointer = pointer
        self.rule = rule
        self.message = message
    }

    /// `FILE: POINTER: RULE: message`, the pointer `/` for the whole file.
    public var description: String {
        "\(file): \(pointer.isEmpty ? "/" : pointer): \(rule.rawValue): \(message)"
    }

    /// By file, then by place in the file, then by rule.
    public static func < (left: SchemaSetFinding, right: SchemaSetFinding) -> Bool {
        if left.file != right.file { return left.file.utf8.lexicographicallyPrecedes(right.file.utf8) }
        if left.pointer != right.pointer { return left.pointer.utf8.lexicographicallyPrecedes(right.pointer.utf8) }
        if left.rule != right.rule { return left.rule.rawValue < right.rule.rawValue }
        return left.message < right.message
    }
}
