extension SchemaSetCheck {
    /// The `x-merge` words.
    static let policyWords = ["fields", "append-only", "counter", "max", "min", "union"]
    /// The keys of the object forms of `x-merge`.
    static let policyKeys = ["lww", "future", "highest", "then", "entries", "by", "append-only", "derive"]

    /// Every `x-merge` annotation: its words, the type of the value it merges, the fields it
    /// orders by; then what ``MergePolicy/init(schema:)`` refuses that those did not name,
    /// and annotations where no policy is read.
    static func policyFindings(file: String, schema: JSONValue) -> [SchemaSetFinding] {
        var findings: [SchemaSetFinding] = []
        var read: Set<String> = []
        policyFindings(file: file, node: schema, pointer: "", read: &read, into: &findings)
        do {
            _ = try MergePolicy(schema: schema)
        } catch {
            if !findings.contains(where: { $0.pointer.hasPrefix(error.pointer) || error.pointer.hasPrefix($0.pointer) }) {
                findings.append(SchemaSetFinding(file: file, pointer: error.pointer, rule: .mergeAnnotation, message: error.reason))
            }
        }
        eachSchema(schema, pointer: "") { node, pointer in
            guard node.field("x-merge") != nil, !read.contains(pointer) else { return }
            findings.append(
                SchemaSetFinding(
                    file: file, pointer: pointer + "/x-merge", rule: .mergeAnnotation,
                    message:
                        "x-merge is never read here: policies are read on properties and on the entries of a map (additionalProperties, or a single patternProperties)"
                ))
        }
        return findings
    }

    private static func policyFindings(
        file: String, node: JSONValue, pointer: String,
        read: inout Set<String>, into findings: inout [SchemaSetFinding]
    ) {
        read.insert(pointer)
        let here = pointer + "/x-merge"
        func add(_ rule: SchemaSetFinding.Rule, _ message: String, at place: String? = nil) {
            findings.append(SchemaSetFinding(file: file, pointer: place ?? here, rule: rule, message: message))
        }
        func stamp(_ field: String, in object: JSONValue?, of owner: String, at place: String) {
            let declared = object?.field("properties")?.field(field)
            guard let declared else {
                add(
                    .stampField,
                    "\(owner) orders by \"\(field)\", which the schema does not declare; declare it in properties (an integer, a number or a date-time string)",
                    at: place)
                return
            }
            if !isStamp(declared) {
                add(
                    .stampField,
                    "\(owner) orders by \"\(field)\", which is \(typeDescription(declared)); a stamp is an integer, a number or a string with \"format\": \"date-time\"",
                    at: place)
            }
        }
        func objectValue(_ policy: String) {
            if let types = types(of: node), !types.subtracting(["null"]).isEmpty, !types.subtracting(["null"]).isSubset(of: ["object"]) {
                add(.policyType, "\(policy) picks a whole object by one of its fields; this value is \(typeDescription(node))")
            }
        }
        switch node.field("x-merge") {
        case nil:
            break
        case .string(let word)?:
            if !policyWords.contains(word) {
                add(
                    .mergeWord,
                    "unknown x-merge word \"\(word)\"; "
                        + suggestion(
                            for: word, among: policyWords + ["lww", "highest", "entries"],
                            otherwise:
                                "use fields, append-only, counter, max, min or union, or an object form ({\"lww\": F}, {\"highest\": F}, {\"entries\": \"latest\", \"by\": F})"
                        ))
            } else if let types = types(of: node)?.subtracting(["null"]), !types.isEmpty {
                switch word {
                case "counter" where types != ["integer"]:
                    add(.policyType, "counter adds up increments of an integer; this value is \(typeDescription(node))")
                case "max", "min":
                    // Booleans too: true is greater, so max keeps a flag once set (a completion).
                    if !(types.isSubset(of: ["integer", "number"]) || types == ["boolean"] || (types == ["string"] && isDateTime(node))) {
                        add(.policyType, "\(word) compares numbers, date-time strings or booleans; this value is \(typeDescription(node))")
                    }
                case "union" where types != ["array"]:
                    add(.policyType, "union merges arrays as sets; this value is \(typeDescription(node))")
                default:
                    break
                }
            }
        case .object(let annotation)?:
            for key in annotation.keys.sorted() where !policyKeys.contains(key) {
                add(
                    .mergeWord,
                    "unknown x-merge key \"\(key)\"; "
                        + suggestion(
                            for: key, among: policyKeys,
                            otherwise:
                                "the object forms are {\"lww\": F}, {\"highest\": F, \"then\": G}, {\"entries\": \"latest\", \"by\": F}, {\"append-only\": {\"latest\": F}} and {\"derive\": …}"
                        ),
                    at: here + "/" + token(key))
            }
            if case .string(let word)? = annotation["entries"], word != "latest" {
                add(
                    .mergeWord,
                    "unknown entries policy \"\(word)\"; "
                        + suggestion(for: word, among: ["latest"], otherwise: "entries takes \"latest\""), at: here + "/entries")
            }
            if case .string(let word)? = annotation["future"], !["flag", "clamp"].contains(word) {
                add(
                    .mergeWord,
                    "unknown future option \"\(word)\"; "
                        + suggestion(for: word, among: ["flag", "clamp"], otherwise: "future is \"flag\" or \"clamp\""),
                    at: here + "/future")
            }
            // Derived fields are the document's own properties: `/properties/NAME`.
            let topLevel = pointer.hasPrefix("/properties/") && !pointer.dropFirst("/properties/".count).contains("/")
            if annotation["derive"] != nil, !topLevel {
                add(.deriveSource, "derived fields are computed at the top level of a document only; here the annotation is never computed")
            }
            if case .string(let field)? = annotation["lww"] {
                objectValue("lww")
                stamp(field, in: node, of: "lww", at: here + "/lww")
            }
            if case .string(let field)? = annotation["highest"] {
                objectValue("highest")
                stamp(field, in: node, of: "highest", at: here + "/highest")
                if case .string(let then)? = annotation["then"] { stamp(then, in: node, of: "highest's then", at: here + "/then") }
            }
            if case .object(let options)? = annotation["append-only"], case .string(let field)? = options["latest"] {
                objectValue("append-only with latest")
                stamp(field, in: node, of: "append-only's latest", at: here + "/append-only/latest")
            }
            if annotation["entries"] == .string("latest") {
                if let types = types(of: node)?.subtracting(["null"]), !types.isEmpty, types != ["object"] {
                    add(.policyType, "entries merges the entries of a map; this value is \(typeDescription(node))")
                } else if let entries = entrySchema(of: node) {
                    if case .string(let field)? = annotation["by"] { stamp(field, in: entries.schema, of: "entries", at: here + "/by") }
                } else {
                    add(
                        .policyType,
                        "entries merges the entries of a map; this object declares no schema for them (additionalProperties, or a single patternProperties)"
                    )
                }
            }
        case .some:
            add(.mergeAnnotation, "x-merge is a word (fields, append-only, counter, max, min, union) or an object ({\"lww\": F}, …)")
        }
        for (key, child) in (node.field("properties")?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            policyFindings(file: file, node: child, pointer: pointer + "/properties/" + token(key), read: &read, into: &findings)
        }
        if let entries = entrySchema(of: node) {
            policyFindings(file: file, node: entries.schema, pointer: pointer + entries.pointer, read: &read, into: &findings)
        }
    }

    /// The schema of a map's entries — `additionalProperties`, or the only `patternProperties`
    /// — and where it is, as ``MergePolicy`` reads it.
    static func entrySchema(of node: JSONValue) -> (schema: JSONValue, pointer: String)? {
        if case .object? = node.field("additionalProperties") {
            return (node.field("additionalProperties")!, "/additionalProperties")
        }
        if case .object(let patterns)? = node.field("patternProperties"), patterns.count == 1, let (pattern, schema) = patterns.first,
            case .object = schema
        {
            return (schema, "/patternProperties/" + token(pattern))
        }
        return nil
    }

    /// The types a schema declares (`type`, a name or a list), nil when it declares none.
    static func types(of node: JSONValue) -> Set<String>? {
        switch node.field("type") {
        case .string(let name)?: [name]
        case .array(let names)?: Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } })
        default: nil
        }
    }

    static func isDateTime(_ node: JSONValue) -> Bool {
        node.field("format") == .string("date-time")
    }

    /// Whether a value of this schema is a stamp: an integer, a number, or a date-time string
    /// (and perhaps null, which orders first).
    static func isStamp(_ node: JSONValue) -> Bool {
        guard let types = types(of: node)?.subtracting(["null"]), !types.isEmpty else { return false }
        return types.isSubset(of: ["integer", "number"]) || (types == ["string"] && isDateTime(node))
    }

    /// How a finding names a value's type: `string`, `a string without "format": "date-time"`.
    static func typeDescription(_ node: JSONValue) -> String {
        guard let types = types(of: node), !types.isEmpty else { return "of no declared type" }
        let names = types.sorted().map { name in
            name == "null" ? name : (name.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + name
        }.joined(separator: " or ")
        if types.subtracting(["null"]) == ["string"] && !isDateTime(node) {
            return names + " without \"format\": \"date-time\""
        }
        return names
    }
}
