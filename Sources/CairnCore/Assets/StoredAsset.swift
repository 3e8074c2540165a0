import CairnMerge

/// An asset a document of the store points to, as `cairn asset ls` lists it.
public struct StoredAsset: Sendable, Hashable {
    /// The document whose field holds it.
    public var document: DocumentPath
    /// The asset field (`audioAsset`).
    public var field: String
    public var reference: AssetReference
    /// Whether its bytes are on this device (added here, or read once).
    public var isLocal: Bool
}
