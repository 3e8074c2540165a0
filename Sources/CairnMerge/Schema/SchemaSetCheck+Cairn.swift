extension SchemaSetCheck {
    /// What `x-cairn` may hold besides the path.
    static let cairnKeys = ["path", "content", "checkpoint", "retention", "ids", "pins", "assets"]

    /// `x-cairn`: a checkpoint policy, a retention that orders by a stamp, schemas for IDs
    /// the path has, and nothing Cairn does not read.
    static func cairnFindings(file: String, schema: JSONValue) -> [SchemaSetFinding] {
        guard let annotation = schema.field("x-cairn") else { return [] }
        var findings: [SchemaSetFinding] = []
        func add(_ pointer: String, _ rule: SchemaSetFinding.Rule, _ message: String) {
            findings.append(SchemaSetFinding(file: file, pointer: pointer, rule: rule, message: message))
        }
        guard case .object(let fields) = annotation else {
            add("/x-cairn", .cairnAnnotation, "x-cairn is an object: {\"path\": \"users/{uid}/…\", …}")
            return findings
        }
        for key in fields.keys.sorted() where !cairnKeys.contains(key) {
            add(
                "/x-cairn/" + token(key), .unclaimedKeyword,
                "x-cairn.\(key) is not read by Cairn; "
                    + suggestion(
                        for: key, among: cairnKeys, otherwise: "x-cairn holds path, content, checkpoint, retention, ids, pins and assets"))
        }
        if let content = fields["content"], content != .bool(true), content != .bool(false) {
            add("/x-cairn/content", .cairnAnnotation, "x-cairn.content is true (the kind is shared content) or false (progress)")
        }
        if fields["content"] == .bool(true) {
            // Content is published by its authors with git: nothing checkpoints or prunes it.
            for key in ["checkpoint", "retention"] where fields[key] != nil {
                add(
                    "/x-cairn/" + key, .cairnAnnotation,
                    "x-cairn.\(key) is not read for shared content, which its authors publish with git; remove it")
            }
        }
        if let checkpoint = fields["checkpoint"], CheckpointPolicy(annotation: checkpoint) == nil {
            add(
                "/x-cairn/checkpoint", .cairnAnnotation,
                "x-cairn.checkpoint is \"immediate\", {\"throttle\": seconds} or {\"debounce\": seconds}, seconds from 0 to 86400")
        }
        if let retention = fields["retention"] {
            if let policy = RetentionPolicy(annotation: retention) {
                let declared = schema.field("properties")?.field(policy.by)
                if let declared {
                    if !isStamp(declared) {
                        add(
                            "/x-cairn/retention/by", .stampField,
                            "retention orders by \"\(policy.by)\", which is \(typeDescription(declared)); a stamp is an integer, a number or a string with \"format\": \"date-time\""
                        )
                    }
                } else {
                    add("/x-cairn/retention/by", .stampField, "retention orders by \"\(policy.by)\", which the schema does not declare")
                }
            } else {
                add(
                    "/x-cairn/retention", .cairnAnnotation, "x-cairn.retention is {\"keep\": N, \"by\": \"field\"} with N from 1 to 1000000"
                )
            }
        }
        if let assets = fields["assets"] {
            do {
                _ = try AssetField.fields(annotation: assets, schema: schema)
            } catch {
                add(error.pointer, .cairnAnnotation, error.message)
            }
        }
        if let ids = fields["ids"] {
            let placeholders = pattern(of: schema)?.placeholders ?? []
            if case .object(let schemas) = ids {
                for (name, id) in schemas.sorted(by: { $0.key < $1.key }) {
                    if !placeholders.contains(name) {
                        add(
                            "/x-cairn/ids/" + token(name), .cairnAnnotation,
                            "x-cairn.ids.\(name) names no placeholder of the path; "
                                + suggestion(
                                    for: name, among: placeholders,
                                    otherwise: "the placeholders are \(placeholders.map { "{\($0)}" }.joined(separator: ", "))"))
                    } else if case .object = id {
                    } else {
                        add("/x-cairn/ids/" + token(name), .cairnAnnotation, "x-cairn.ids.\(name) is a schema (an object) the ID must meet")
                    }
                }
            } else {
                add("/x-cairn/ids", .cairnAnnotation, "x-cairn.ids is an object: a schema per placeholder of the path")
            }
        }
        return findings
    }
}
