import CairnMerge

/// Why a remote refused a push, as a ``CairnError``'s cause (code `.refused`): what it said,
/// and the documents of the refused checkpoints that it named. Taking those back to the
/// remote's version (``Store/restore(_:from:)``) keeps every other unpushed document and lets
/// the next sync through.
public struct PushRefusal: Error, Sendable, Hashable {
    /// What the remote said (its hook's reasons, joined).
    public var reason: String
    /// The documents the push would have changed that the reason names, sorted.
    public var documents: [DocumentPath]

    public init(reason: String, documents: [DocumentPath]) {
        self.reason = reason
        self.documents = documents
    }
}
