import CairnMerge

extension SchemaSet {
    /// The set `files` hold, read for a command to use. A set that cannot be used is invalid
    /// input, said in one line the same way everywhere — `the schema set NAME cannot be used:
    /// WHY` — followed by `; ` and `then` (what was not done, or what to run) when given.
    public init(reading files: SchemaSetFiles, then: String? = nil) throws(CairnError) {
        do {
            self = try SchemaSet(files: files.files)
        } catch {
            throw CairnError(.invalidInput, "the schema set \(files.name) cannot be used: \(error.description)" + (then.map { "; " + $0 } ?? ""),
                             cause: error)
        }
    }
}
