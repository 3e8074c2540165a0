extension SchemaSetCheck {
    /// `x-cairn.pins`: readable (see ``ContentPin``), on progress only, and pointing to fields
    /// that can hold what Cairn reads and writes there — the item's ID and the version are
    /// strings, the version is not computed, and a schema that allows no other fields declares it.
    static func pinFindings(file: String, schema: JSONValue) -> [SchemaSetFinding] {
        guard let annotation = schema.field("x-cairn")?.field("pins") else { return [] }
        var findings: [SchemaSetFinding] = []
        func add(_ pointer: String, _ message: String) {
            findings.append(SchemaSetFinding(file: file, pointer: pointer, rule: .cairnAnnotation, message: message))
        }
        if schema.field("x-cairn")?.field("content") == .bool(true) {
            add("/x-cairn/pins", "x-cairn.pins is for progress that answers content; shared content pins nothing — remove it")
            return findings
        }
        let pin: ContentPin
        do {
            pin = try ContentPin(annotation: annotation)
        } catch {
            add(error.pointer, error.message)
            return findings
        }
        let properties = schema.field("properties")
        for (key, field) in [("item", pin.itemField), ("version", pin.versionField)] {
            let pointer = "/x-cairn/pins/" + key
            guard let declared = properties?.field(field) else {
                if key == "version", schema.field("additionalProperties") == .bool(false) {
                    add(
                        pointer,
                        "the version field \"\(field)\" is not declared and the schema allows no other fields, so every pinned document would break it; declare it in properties: {\"type\": \"string\"}"
                    )
                }
                continue
            }
            if let types = types(of: declared), !types.contains("string") {
                add(
                    pointer,
                    "x-cairn.pins.\(key) points to \"\(field)\", which is \(typeDescription(declared)); \(key == "item" ? "the item's ID" : "the version (a commit id)") is a string"
                )
            }
            if key == "version", declared.field("x-merge")?.field("derive") != nil {
                add(
                    pointer,
                    "the version field \"\(field)\" is computed (x-merge.derive); Cairn fills it with the content's version — use a field of its own"
                )
            }
        }
        return findings
    }
}
