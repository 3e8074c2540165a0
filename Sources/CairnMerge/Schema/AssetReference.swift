/// What a document's asset field holds: the asset's SHA-256, its size and, optionally, its
/// media type — `{"oid": "<64 hex digits>", "size": 52311, "mediaType": "audio/mp4"}`.
///
/// The same oid and size make the asset's Git LFS pointer (``pointerBytes``), the file the
/// store's trees hold at ``StoreLayout/assetPointerFile(of:field:)``, so that git-lfs and any
/// LFS server know the asset as they know any other.
public struct AssetReference: Hashable, Sendable {
    /// The SHA-256 of the bytes, 64 lowercase hex digits.
    public var oid: String
    public var size: Int64
    public var mediaType: String?

    public init(oid: String, size: Int64, mediaType: String? = nil) {
        self.oid = oid
        self.size = size
        self.mediaType = mediaType
    }

    /// Reads a field's value; nil when it is not an asset reference.
    public init?(_ value: JSONValue) {
        guard case .object(let fields) = value,
            case .string(let oid)? = fields["oid"], Self.isOID(oid),
            case .integer(let size)? = fields["size"], size >= 0
        else { return nil }
        var mediaType: String?
        if let type = fields["mediaType"] {
            guard case .string(let text) = type, !text.isEmpty, text.utf8.count <= 255 else { return nil }
            mediaType = text
        }
        guard Set(fields.keys).isSubset(of: ["oid", "size", "mediaType"]) else { return nil }
        self.init(oid: oid, size: size, mediaType: mediaType)
    }

    /// The field's value.
    public var json: JSONValue {
        var fields: JSONObject = ["oid": .string(oid), "size": .integer(size)]
        if let mediaType { fields["mediaType"] = .string(mediaType) }
        return .object(fields)
    }

    /// What a field's value should look like, for messages.
    public static let form =
        "an asset field holds null or {\"oid\": \"<SHA-256, 64 lowercase hex digits>\", \"size\": bytes, \"mediaType\": \"type/subtype\"} (cairn asset add writes it)"

    /// The Git LFS pointer of the asset (version 1 of git-lfs's pointer format).
    public var pointerBytes: [UInt8] {
        Array("version https://git-lfs.github.com/spec/v1\noid sha256:\(oid)\nsize \(size)\n".utf8)
    }

    /// Reads a Git LFS pointer (oid and size; a pointer names no media type); nil when the
    /// bytes are not one.
    public init?(pointer bytes: [UInt8]) {
        guard bytes.count < 1024 else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        var oid: String?
        var size: Int64?
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.last == "" else { return nil }
        lines.removeLast()
        guard lines.first?.hasPrefix("version https://git-lfs.github.com/spec/v1") == true else { return nil }
        for line in lines.dropFirst() {
            if line.hasPrefix("oid sha256:") {
                oid = String(line.dropFirst("oid sha256:".count))
            } else if line.hasPrefix("size ") {
                size = Int64(line.dropFirst("size ".count))
            }
        }
        guard let oid, Self.isOID(oid), let size, size >= 0 else { return nil }
        self.init(oid: oid, size: size)
    }

    /// Whether `text` is a SHA-256 in lowercase hex.
    public static func isOID(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
