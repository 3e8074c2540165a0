import CairnMerge

/// Three sides of a merge for the law checker: a base and two changes of it (any of them
/// absent: not created yet, or deleted).
public struct LawCase: Hashable, Sendable, CustomStringConvertible {
    public var base: JSONValue?
    public var ours: JSONValue?
    public var theirs: JSONValue?

    public init(base: JSONValue?, ours: JSONValue?, theirs: JSONValue?) {
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }

    /// The case with its sides swapped.
    public var swapped: LawCase { LawCase(base: base, ours: theirs, theirs: ours) }

    public var description: String {
        func text(_ value: JSONValue?) -> String { value?.inlineText ?? "(absent)" }
        return "base \(text(base)), ours \(text(ours)), theirs \(text(theirs))"
    }
}
