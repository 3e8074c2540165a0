import CairnMerge

/// A file of the store that differs from the last checkpoint.
public struct FileChange: Hashable, Sendable, Comparable {
    public enum Kind: String, Hashable, Sendable {
        case added, modified, deleted
    }

    /// The file, relative to the store (`users/u1/books/b1.json`).
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// The document path when the file is a document's (`users/u1/books/b1`), else the file.
    public var displayPath: String {
        path.hasPrefix(".") ? path : DocumentID.stem(ofFileName: path) ?? path
    }

    public static func < (left: FileChange, right: FileChange) -> Bool {
        left.path.utf8.lexicographicallyPrecedes(right.path.utf8)
    }
}
