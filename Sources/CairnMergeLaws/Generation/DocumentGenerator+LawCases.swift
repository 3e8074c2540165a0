import CairnMerge

extension DocumentGenerator {
    /// Three sides of a merge of the document at `path` for the law checker, as devices make
    /// them: a base (absent one time in five), and each side the base unchanged, deleted,
    /// created or drawn anew, or changed by one to three edits of its policy
    /// (``edit(_:of:at:time:documents:using:)``; an append-only document is never edited, so
    /// its side is drawn anew: a change the policy refuses).
    public func lawCase(
        of kind: SchemaSet.Kind, at path: DocumentPath,
        using random: inout SplitMix
    ) throws(GenerationError) -> LawCase {
        // Steps from a small range: equal stamps on both sides happen, and ties are tested.
        let start = Int64.random(in: 0..<20, using: &random)
        let base: JSONValue? =
            Int.random(in: 0..<5, using: &random) == 0
            ? nil : try document(of: kind, at: path, time: start, using: &random)
        func side(_ random: inout SplitMix) throws(GenerationError) -> JSONValue? {
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1: return base
            case 2: return nil
            case 3: return try document(of: kind, at: path, time: start + Int64.random(in: 0..<4, using: &random), using: &random)
            default:
                guard var value = base else {
                    return try document(of: kind, at: path, time: start + Int64.random(in: 0..<4, using: &random), using: &random)
                }
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let time = start + Int64.random(in: 1..<6, using: &random)
                    guard let edit = try edit(value, of: kind, at: path, time: time, using: &random) else {
                        return kind.policy.isAppendOnly ? try document(of: kind, at: path, time: time, using: &random) : value
                    }
                    value = edit.document
                }
                return value
            }
        }
        return LawCase(base: base, ours: try side(&random), theirs: try side(&random))
    }
}
