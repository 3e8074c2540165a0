/// A file to attach to a document as the asset of one of its fields, in
/// ``Store/put(_:at:attaching:)``.
public struct AssetAttachment: Sendable, Hashable {
    /// The asset field (`audioAsset`).
    public var field: String
    /// The file's path.
    public var file: String
    /// Its media type (`audio/mp4`), kept in the document; nil: none.
    public var mediaType: String?

    public init(field: String, file: String, mediaType: String? = nil) {
        self.field = field
        self.file = file
        self.mediaType = mediaType
    }
}
