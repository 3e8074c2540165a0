extension ConflictRecord {
    /// The record as a JSON object — `document`, `pointer`, `policy`, and `kept` / `replaced`
    /// and `note` when present — as merge commits carry it.
    public var jsonValue: JSONValue {
        var fields: JSONObject = [
            "document": .string(document?.description ?? ""), "pointer": .string(pointer),
            "policy": .string(policy.rawValue),
        ]
        if let kept { fields["kept"] = kept }
        if let replaced { fields["replaced"] = replaced }
        if let note { fields["note"] = .string(note) }
        return .object(fields)
    }

    /// Reads a record written by ``jsonValue``; nil for anything else, such as a `document`
    /// that is neither empty nor a document's path.
    public init?(json: JSONValue) {
        guard case .string(let named)? = json.field("document"), case .string(let pointer)? = json.field("pointer"),
            case .string(let policy)? = json.field("policy")
        else { return nil }
        var document: DocumentPath?
        if !named.isEmpty {
            guard let path = try? DocumentPath(named) else { return nil }
            document = path
        }
        self.init(
            document: document, pointer: pointer, policy: PolicyName(rawValue: policy),
            kept: json.field("kept"), replaced: json.field("replaced"),
            note: json.field("note").flatMap { if case .string(let text) = $0 { text } else { nil } })
    }
}
