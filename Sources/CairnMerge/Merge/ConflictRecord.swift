/// What a policy decided when both sides changed the same value differently: where, by which
/// policy, the value kept and the value replaced (absent: the side had deleted it). Nothing
/// is lost: the replaced value stays in history, and the record says where to find it.
public struct ConflictRecord: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The document (`users/u1/books/b1`), or nil for a value merged on its own.
    public var document: DocumentPath?
    /// The JSON pointer of the value in the document (RFC 6901; empty for the whole document).
    public var pointer: String
    /// The policy that decided (``MergePolicy/name``), or ``PolicyName/cascade``.
    public var policy: PolicyName
    /// The value kept, or nil when the result is that the value is absent.
    public var kept: JSONValue?
    /// The value not kept, or nil when the side that lost had deleted it.
    public var replaced: JSONValue?
    /// What else a reader should know of the decision, such as a stamp from the future
    /// (see ``MergeContext``); nil when nothing.
    public var note: String?

    public init(
        document: DocumentPath? = nil, pointer: String, policy: PolicyName, kept: JSONValue?, replaced: JSONValue?,
        note: String? = nil
    ) {
        self.document = document
        self.pointer = pointer
        self.policy = policy
        self.kept = kept
        self.replaced = replaced
        self.note = note
    }

    public var description: String {
        func show(_ value: JSONValue?) -> String {
            guard let value else { return "(deleted)" }
            let text = value.inlineText
            return text.count > 120 ? String(text.prefix(120)) + "…" : text
        }
        var (kept, replaced) = (kept, replaced)
        // Two objects: only the fields where they differ say what was decided.
        if case .object(let keptFields)? = kept, case .object(let replacedFields)? = replaced {
            let differing = Set(keptFields.keys).union(replacedFields.keys).filter {
                !JSONValue.same(keptFields[$0], replacedFields[$0])
            }
            kept = .object(keptFields.filter { differing.contains($0.key) })
            replaced = .object(replacedFields.filter { differing.contains($0.key) })
        }
        let place = document.map { $0.description + (pointer.isEmpty ? "" : "#" + pointer) } ?? (pointer.isEmpty ? "/" : pointer)
        let remark = note.map { " (\($0))" } ?? ""
        return "\(place) [\(policy)] kept \(show(kept)), replaced \(show(replaced))\(remark)"
    }

    /// Records sort by document (as text, none first), then pointer, then content: the same
    /// set of records is always the same list.
    public static func < (left: ConflictRecord, right: ConflictRecord) -> Bool {
        if left.document != right.document { return Self.text(of: left.document).lexicographicallyPrecedes(Self.text(of: right.document)) }
        if left.pointer != right.pointer { return left.pointer.utf8.lexicographicallyPrecedes(right.pointer.utf8) }
        return JSONValue.canonicalOrder(left.kept, right.kept) < 0
            || (JSONValue.canonicalOrder(left.kept, right.kept) == 0 && JSONValue.canonicalOrder(left.replaced, right.replaced) < 0)
    }

    /// A document's path as UTF-8, `/` between its IDs, without building the string: the
    /// order of records is the order of their documents' text.
    private static func text(of document: DocumentPath?) -> some Sequence<UInt8> {
        (document?.segments ?? []).lazy.map(\.utf8).joined(separator: "/".utf8)
    }
}
