import CairnMerge

/// A law a merge broke: which policy, which law, where in the value the results went wrong,
/// the three sides that broke it, and what the merge gave both ways (`merge(base, ours,
/// theirs)`, then `merge(base, theirs, ours)`).
public struct LawViolation: Hashable, Sendable, CustomStringConvertible {
    /// The policy's name (`lww(updatedAt)`), or the kind's path for a whole document.
    public var policy: String
    public var law: MergeLaw
    /// The JSON pointer of the first value that differs from what the law wants ("" for the
    /// whole value).
    public var pointer: String
    /// The sides merged.
    public var sides: LawCase
    /// `merge(base, ours, theirs)`.
    public var forward: MergeOutcome
    /// `merge(base, theirs, ours)`.
    public var backward: MergeOutcome
    /// Which generated case broke it (nil once shrunk or when not generated).
    public var caseNumber: Int?

    public init(
        policy: String, law: MergeLaw, pointer: String, sides: LawCase, forward: MergeOutcome,
        backward: MergeOutcome, caseNumber: Int? = nil
    ) {
        self.policy = policy
        self.law = law
        self.pointer = pointer
        self.sides = sides
        self.forward = forward
        self.backward = backward
        self.caseNumber = caseNumber
    }

    /// What the law wants, in words.
    public var expectation: String {
        switch law {
        case .symmetry: "merge(base, ours, theirs) and merge(base, theirs, ours) the same bytes and records"
        case .identity: "a merge against an unchanged side to give the changed side, with no record"
        case .idempotence: "the same change on both sides to merge to that change, with no record"
        }
    }

    /// The violation in a few lines: the law and place, the sides, and both merges.
    public var description: String {
        func text(_ value: JSONValue?) -> String { value?.inlineText ?? "(absent)" }
        func outcome(_ outcome: MergeOutcome) -> String {
            let records = outcome.conflicts.map { record in
                "\(record.pointer.isEmpty ? "/" : record.pointer) \(record.policy): kept \(text(record.kept)), replaced \(text(record.replaced))"
            }
            return text(outcome.value) + (records.isEmpty ? "" : "; records: " + records.joined(separator: "; "))
        }
        return """
            \(policy): \(law.rawValue) broken at \(pointer.isEmpty ? "/" : pointer) (the law wants \(expectation))
              base:   \(text(sides.base))
              ours:   \(text(sides.ours))
              theirs: \(text(sides.theirs))
              merge(base, ours, theirs): \(outcome(forward))
              merge(base, theirs, ours): \(outcome(backward))
            """
    }
}
