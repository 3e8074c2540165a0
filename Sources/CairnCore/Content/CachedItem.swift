import CairnMerge

/// One item of shared content kept on this device for offline use (seed 001's
/// `cached_assessments`): which version, how large, and when it was downloaded, expires and
/// was last read. Times are seconds since 1970 (UTC).
public struct CachedItem: Sendable, Hashable {
    /// The collection (`assessments`) and the item's ID (`a1`).
    public var collection: String
    public var item: String
    /// The version held: the commit of the item's `main`, and its number (1 for the first
    /// version published, then 2, …: the commits on `main`).
    public var commit: CheckpointID
    public var version: Int
    /// The item's bare repository on disk, in bytes.
    public var sizeBytes: Int64
    public var downloadedAt: Int64
    /// When the download goes stale: `downloadedAt` plus the limits' expiry.
    public var expiresAt: Int64
    /// When the item was last read (`cairn content get`, ``ContentCache/document(at:)``);
    /// nil until it is.
    public var lastAccessedAt: Int64?
    /// The versions after the one held before this download that broke the rules of content
    /// and were not taken, oldest first (see ``PassedOverVersion``); empty when none did.
    public var passedOver: [PassedOverVersion]

    public init(
        collection: String, item: String, commit: CheckpointID, version: Int, sizeBytes: Int64,
        downloadedAt: Int64, expiresAt: Int64, lastAccessedAt: Int64? = nil, passedOver: [PassedOverVersion] = []
    ) {
        self.collection = collection
        self.item = item
        self.commit = commit
        self.version = version
        self.sizeBytes = sizeBytes
        self.downloadedAt = downloadedAt
        self.expiresAt = expiresAt
        self.lastAccessedAt = lastAccessedAt
        self.passedOver = passedOver
    }

    /// `collection/item`: how the cache and its messages name the item.
    public var key: String { collection + "/" + item }

    /// Whether the download is stale at `now`.
    public func isExpired(at now: Int64) -> Bool { expiresAt <= now }

    /// What least-recently-used eviction compares: the last read, else the download.
    public var lastUsedAt: Int64 { lastAccessedAt ?? downloadedAt }

    var jsonValue: JSONValue {
        .object([
            "collection": .string(collection), "item": .string(item), "commit": .string(commit.hex),
            "version": .integer(Int64(version)), "sizeBytes": .integer(sizeBytes),
            "downloadedAt": .integer(downloadedAt), "expiresAt": .integer(expiresAt),
            "lastAccessedAt": lastAccessedAt.map { .integer($0) } ?? .null,
            "passedOver": .array(passedOver.map(\.jsonValue)),
        ])
    }

    /// Read from the cache's record; nil when a field is missing or wrong.
    init?(_ value: JSONValue) {
        guard case .string(let collection)? = value.field("collection"), case .string(let item)? = value.field("item"),
            case .string(let hex)? = value.field("commit"), let commit = CheckpointID(hex: hex),
            case .integer(let version)? = value.field("version"), case .integer(let size)? = value.field("sizeBytes"),
            case .integer(let downloaded)? = value.field("downloadedAt"), case .integer(let expires)? = value.field("expiresAt")
        else { return nil }
        var accessed: Int64?
        if case .integer(let value)? = value.field("lastAccessedAt") { accessed = value }
        // Records written before versions could be passed over have no such field.
        var passedOver: [PassedOverVersion] = []
        if let field = value.field("passedOver") {
            guard case .array(let entries) = field else { return nil }
            for entry in entries {
                guard let version = PassedOverVersion(entry) else { return nil }
                passedOver.append(version)
            }
        }
        self.init(
            collection: collection, item: item, commit: commit, version: Int(clamping: version), sizeBytes: size,
            downloadedAt: downloaded, expiresAt: expires, lastAccessedAt: accessed, passedOver: passedOver)
    }
}
