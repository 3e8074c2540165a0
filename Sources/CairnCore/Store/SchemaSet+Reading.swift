import CairnMerge

extension SchemaSet {
    /// The set `files` hold, read for a command to use. A set that cannot be used is invalid
    /// input, said in one line the same way everywhere — `the schema set NAME cannot be used:
    /// WHY` — followed by `; ` and `then` (what was not done, or what to run) when given.
    public init(reading files: SchemaSetFiles, then: String? = nil) throws(CairnError) {
        do {
            self = try SchemaSet(files: files.files)
        } catch {
            throw CairnError(
                .invalidInput, "the schema set \(files.name) cannot be used: \(error.description)" + (then.map { "; " + $0 } ?? ""),
                cause: error)
        }
    }

    /// Reads `files` as a set of progress, for a store: a content set (shared content, read
    /// by every user) is refused with the line that says where it belongs.
    public init(readingProgress files: SchemaSetFiles, then: String? = nil) throws(CairnError) {
        try self.init(reading: files, then: then)
        if let collection = contentCollection {
            throw CairnError(
                .invalidInput,
                "the schema set \(files.name) describes shared content (the collection \(collection)), not a user's progress",
                remedy: .serveContentCollection(consequence: then.flatMap { $0.isEmpty ? nil : $0 }))
        }
    }
}
