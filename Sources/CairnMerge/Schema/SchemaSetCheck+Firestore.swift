extension SchemaSetCheck {
    /// `x-firestore`: one of the words of ``FirestoreType``, on a schema whose declared type
    /// (when it declares one) can hold it.
    static func firestoreFindings(file: String, schema: JSONValue) -> [SchemaSetFinding] {
        var findings: [SchemaSetFinding] = []
        let words = FirestoreType.allCases.map(\.rawValue)
        eachSchema(schema, pointer: "") { node, pointer in
            guard let annotation = node.field(FirestoreType.keyword) else { return }
            let at = pointer + "/" + FirestoreType.keyword
            guard case .string(let word) = annotation, let type = FirestoreType(rawValue: word) else {
                let text: String = if case .string(let word) = annotation { word } else { "" }
                findings.append(
                    SchemaSetFinding(
                        file: file, pointer: at, rule: .firestoreType,
                        message: "x-firestore is one of " + words.map { "\"\($0)\"" }.joined(separator: ", ") + "; "
                            + suggestion(for: text, among: words, otherwise: "remove it")))
                return
            }
            if let declared = types(of: node), declared.subtracting(["null"]).isDisjoint(with: type.jsonTypes) {
                findings.append(
                    SchemaSetFinding(
                        file: file, pointer: at, rule: .firestoreType,
                        message:
                            "x-firestore \"\(word)\" is kept in JSON as \(type.jsonTypes.sorted().joined(separator: " or ")), and the schema declares \(typeDescription(node)); declare a type that holds it, or remove the annotation"
                    ))
            }
        }
        return findings
    }
}
