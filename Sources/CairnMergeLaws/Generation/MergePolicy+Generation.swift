import CairnMerge

extension MergePolicy {
    /// The fields of an object under this policy that hold the stamp it compares, drawn as
    /// the step's stamp: `lww`'s field, `highest`'s `then` (its version is counted up by
    /// edits), or its version when it has no `then` or the `then` merges by a policy of its
    /// own (a stamp then decides alone, so what a merge keeps is known).
    var stampFields: Set<String> {
        switch self {
        case .lww(let field, _, _): [field]
        case .highest(let field, let then, let children): [then.flatMap { children[$0] == nil ? $0 : nil } ?? field]
        default: []
        }
    }

    /// The fields a side-picking policy compares, always written: `lww`'s, `highest`'s
    /// version and `then`.
    var comparedFields: Set<String> {
        switch self {
        case .lww(let field, _, _): [field]
        case .highest(let field, let then, _): Set([field] + (then.map { [$0] } ?? []))
        default: []
        }
    }

    /// How the entries of a map under this policy merge: a `fields` map's `others`; an
    /// `entries` map's entries as `lww` by their field (each comes whole from the later side).
    var entryPolicy: MergePolicy? {
        switch self {
        case .fields(_, let others): others
        case .entriesLatest(let field): .lww(field, children: [:])
        default: nil
        }
    }
}
