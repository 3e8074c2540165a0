extension SchemaSetCheck {
    /// The pattern a schema names, when it is one the set accepts (under `users/{…}/`, or for
    /// content under a literal collection and the item's placeholder).
    static func pattern(of schema: JSONValue) -> PathPattern? {
        guard case .string(let text)? = schema.field("x-cairn")?.field("path"), let pattern = PathPattern(text),
            case .literal(let root)? = pattern.segments.first,
            case .placeholder? = pattern.segments.dropFirst().first,
            isContent(schema) ? root != StoreLayout.usersFolder : root == StoreLayout.usersFolder
        else { return nil }
        return pattern
    }

    /// Whether the schema describes shared content (`"x-cairn": {"content": true}`).
    static func isContent(_ schema: JSONValue) -> Bool {
        schema.field("x-cairn")?.field("content") == .bool(true)
    }

    /// `x-cairn.path`: a document path (collection and ID in turn) under `users/{uid}/`, its
    /// collections named literally, its IDs valid IDs or placeholders, each placeholder once.
    static func pathFindings(file: String, schema: JSONValue) -> [SchemaSetFinding] {
        let pointer = "/x-cairn/path"
        func finding(_ message: String) -> [SchemaSetFinding] {
            [SchemaSetFinding(file: file, pointer: pointer, rule: .pathPattern, message: message)]
        }
        guard case .string(let text)? = schema.field("x-cairn")?.field("path") else {
            return finding("the schema names no documents: add \"x-cairn\": {\"path\": \"users/{uid}/…\"}")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.contains(where: \.isEmpty) {
            return finding("\(text) has an empty segment; write IDs and placeholders between single slashes")
        }
        if parts.count % 2 == 1 {
            return finding(
                "\(text) names a collection (an odd number of segments); a document path alternates collection and ID, like users/{uid}/books/{bookId}"
            )
        }
        var seen: Set<String> = []
        for (index, part) in parts.enumerated() {
            let position = "segment \(index + 1) (\(part))"
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                if index % 2 == 0 {
                    return finding(
                        "\(position) of \(text) is a collection's name; collections are named literally, placeholders stand for IDs")
                }
                guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic),
                    name.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) })
                else {
                    return finding("\(position) of \(text): a placeholder's name is letters, digits and _, starting with a letter")
                }
                guard seen.insert(name).inserted else {
                    return finding("\(position) of \(text): the placeholder {\(name)} appears twice; give each ID its own name")
                }
            } else if part.contains("{") || part.contains("}") {
                return finding("\(position) of \(text) is neither an ID nor a placeholder like {bookId}")
            } else {
                do {
                    try DocumentID.validate(part, in: text)
                } catch {
                    return finding("\(position) of \(text) is not a valid ID: \(error.explanation)")
                }
            }
        }
        if isContent(schema) {
            guard parts[0] != StoreLayout.usersFolder, !parts[0].hasPrefix("{"), parts[1].hasPrefix("{") else {
                return finding(
                    "\(text) is not a content path: content is shared, so every path starts with its collection and the item's placeholder, like assessments/{assessmentId}"
                )
            }
            return []
        }
        guard parts[0] == StoreLayout.usersFolder, parts[1].hasPrefix("{") else {
            return finding("\(text) is not under users/{uid}/: a store holds one user's documents, so every path starts users/{uid}")
        }
        return []
    }

    /// Two kinds whose patterns match one path with as many literal segments: which applies
    /// is not what the author can tell (identical patterns are the plainest case).
    static func overlapFindings(_ patterns: [(file: String, pattern: PathPattern)]) -> [SchemaSetFinding] {
        var findings: [SchemaSetFinding] = []
        for (index, later) in patterns.enumerated() {
            for earlier in patterns[..<index] {
                guard let example = overlap(earlier.pattern, later.pattern),
                    earlier.pattern.specificity == later.pattern.specificity
                else { continue }
                let message =
                    earlier.pattern == later.pattern
                    ? "\(later.pattern) is also the path of \(earlier.file); keep one kind per path"
                    : "\(later.pattern) and \(earlier.file)'s \(earlier.pattern) both match \(example), equally specifically; name a collection or an ID literally in one of them"
                findings.append(SchemaSetFinding(file: later.file, pointer: "/x-cairn/path", rule: .pathOverlap, message: message))
            }
        }
        return findings
    }

    /// A path both patterns match (placeholders written as their names), or nil when none does.
    static func overlap(_ first: PathPattern, _ second: PathPattern) -> String? {
        guard first.segments.count == second.segments.count else { return nil }
        var example: [String] = []
        for (left, right) in zip(first.segments, second.segments) {
            switch (left, right) {
            case (.literal(let a), .literal(let b)):
                guard a == b else { return nil }
                example.append(a)
            case (.literal(let text), .placeholder), (.placeholder, .literal(let text)):
                example.append(text)
            case (.placeholder(let name), .placeholder):
                example.append(name)
            }
        }
        return example.joined(separator: "/")
    }

    /// A set describes progress or the content of one collection: a kind marked otherwise
    /// than the first (in file order), or of another collection, is named.
    static func contentFindings(_ schemas: [(file: String, json: JSONValue)]) -> [SchemaSetFinding] {
        guard let first = schemas.first else { return [] }
        let collection = { (schema: JSONValue) -> String? in
            guard isContent(schema), let pattern = pattern(of: schema), case .literal(let root)? = pattern.segments.first else {
                return nil
            }
            return root
        }
        var findings: [SchemaSetFinding] = []
        for (file, json) in schemas.dropFirst() {
            if isContent(json) != isContent(first.json) {
                findings.append(
                    SchemaSetFinding(
                        file: file, pointer: "/x-cairn/content", rule: .cairnAnnotation,
                        message: isContent(json)
                            ? "the kind is content and \(first.file) is progress; a set describes one or the other: mark every kind \"content\": true, or none"
                            : "the kind is progress and \(first.file) is content; a set describes one or the other: mark every kind \"content\": true, or none"
                    ))
            } else if let mine = collection(json), let theirs = collection(first.json), mine != theirs {
                findings.append(
                    SchemaSetFinding(
                        file: file, pointer: "/x-cairn/path", rule: .pathPattern,
                        message:
                            "the collection \(mine) is not \(theirs), the collection of \(first.file); a content set describes one collection"
                    ))
            }
        }
        return findings
    }
}
