extension SchemaSetCheck {
    /// Keywords that say something about a schema without asking anything of documents: the
    /// draft's annotations (`format` among them, as the draft 2020-12 default has it), and Cairn's own.
    static let annotations: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "examples", "default", "format",
        "readOnly", "writeOnly", "deprecated", "x-cairn", "x-merge", FirestoreType.keyword,
    ]

    /// The keywords ``Schema`` checks, and the folders of subschemas `$ref` reaches into.
    static let claimed: Set<String> = Set(SchemaValidator.Keyword.allCases.map(\.name)).union(["$defs", "definitions"])

    /// Keywords neither checked by the validator nor annotations: unknown keywords are
    /// ignored, so documents are not held to them (a misspelt `minimun`, `unevaluatedProperties`).
    static func keywordFindings(file: String, schema: JSONValue) -> [SchemaSetFinding] {
        var findings: [SchemaSetFinding] = []
        func visit(_ node: JSONValue, _ pointer: String) {
            for key in (node.objectValue ?? [:]).keys.sorted() where !claimed.contains(key) && !annotations.contains(key) {
                findings.append(
                    SchemaSetFinding(
                        file: file, pointer: pointer + "/" + token(key), rule: .unclaimedKeyword,
                        message: "\"\(key)\" is not a keyword Cairn's validator checks, so documents are not held to it; "
                            + suggestion(for: key, among: claimed.sorted(), otherwise: "remove it, or check it in the app")))
            }
            if pointer != "", node.field("x-cairn") != nil {
                findings.append(
                    SchemaSetFinding(
                        file: file, pointer: pointer + "/x-cairn", rule: .unclaimedKeyword,
                        message: "x-cairn is read at the top of a schema file only; here it is ignored"))
            }
        }
        eachSchema(schema, pointer: "", visit)
        for (name, id) in (schema.field("x-cairn")?.field("ids")?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            eachSchema(id, pointer: "/x-cairn/ids/" + token(name), visit)
        }
        return findings
    }

    /// Visits `node` and each of its subschemas with its pointer, in a stable order.
    static func eachSchema(_ node: JSONValue, pointer: String, _ visit: (JSONValue, String) -> Void) {
        guard case .object(let keywords) = node else { return }
        visit(node, pointer)
        for key in ["$defs", "definitions", "dependentSchemas", "patternProperties", "properties"] {
            for (name, child) in (keywords[key]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                eachSchema(child, pointer: pointer + "/" + token(key) + "/" + token(name), visit)
            }
        }
        for key in ["additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then"] {
            if let child = keywords[key] { eachSchema(child, pointer: pointer + "/" + token(key), visit) }
        }
        for key in ["allOf", "anyOf", "oneOf", "prefixItems"] {
            guard case .array(let children)? = keywords[key] else { continue }
            for (index, child) in children.enumerated() { eachSchema(child, pointer: pointer + "/\(key)/\(index)", visit) }
        }
    }
}
