extension ConflictRecord {
    /// The record as a JSON object — `document`, `pointer`, `policy`, and `kept` / `replaced`
    /// and `note` when present — as merge commits carry it.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [
            "document": .string(document), "pointer": .string(pointer), "policy": .string(policy),
        ]
        if let kept { fields["kept"] = kept }
        if let replaced { fields["replaced"] = replaced }
        if let note { fields["note"] = .string(note) }
        return .object(fields)
    }

    /// Reads a record written by ``jsonValue``; nil for anything else.
    public init?(json: JSONValue) {
        guard case .string(let document)? = json.field("document"), case .string(let pointer)? = json.field("pointer"),
              case .string(let policy)? = json.field("policy") else { return nil }
        self.init(document: document, pointer: pointer, policy: policy,
                  kept: json.field("kept"), replaced: json.field("replaced"),
                  note: json.field("note").flatMap { if case .string(let text) = $0 { text } else { nil } })
    }
}
