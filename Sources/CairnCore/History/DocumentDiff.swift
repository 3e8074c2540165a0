import CairnMerge

/// A document that differs between two versions of a store (two checkpoints, or a checkpoint
/// and the working tree): added, removed or changed, with each value that changed.
public struct DocumentDiff: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case added, removed, changed
    }

    public var path: DocumentPath
    public var kind: Kind
    /// The values that changed, by JSON pointer: for an added or removed document, one change
    /// of the whole document (pointer "") from or to absent.
    public var changes: [JSONChange]

    public init(path: DocumentPath, kind: Kind, changes: [JSONChange]) {
        self.path = path
        self.kind = kind
        self.changes = changes
    }

    /// The difference of a document from `before` to `after` (nil: absent), or nil when they
    /// are the same.
    public init?(path: DocumentPath, before: JSONValue?, after: JSONValue?) {
        switch (before, after) {
        case (nil, nil): return nil
        case (nil, .some): kind = .added
        case (.some, nil): kind = .removed
        case (.some, .some): kind = .changed
        }
        changes = JSONChange.between(before, after)
        guard !changes.isEmpty else { return nil }
        self.path = path
    }
}
