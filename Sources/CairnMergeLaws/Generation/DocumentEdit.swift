import CairnMerge

/// A change a device makes to a document, the way its policy expects: the changed document
/// and what changed, one line per value (`/sections/s2: entry written, updatedAt 1042`).
///
/// What each policy's edit does: `counter` adds a positive amount; `max` raises a value and
/// `min` lowers one; `union` adds elements; `entries` writes one entry with a stamp later
/// than any before; under `lww` and `highest` a field changes and the stamp is raised (the
/// version counted up, its `then` stamped); under `fields` a leaf changes. Append-only
/// documents are never edited (a device creates new ones).
public struct DocumentEdit: Hashable, Sendable {
    /// The document after the change, its derived fields computed.
    public var document: JSONValue
    /// What changed.
    public var changes: [String]

    public init(document: JSONValue, changes: [String]) {
        self.document = document
        self.changes = changes
    }
}
