extension DocumentCipher {
    /// What every sealed document begins with: "CAIRN" and a 0x00, which no JSON document
    /// holds, and which makes git treat the blob as binary.
    public static let magic: [UInt8] = Array("CAIRN".utf8) + [0]
    /// The format this version writes and reads.
    public static let formatVersion: UInt8 = 1
    /// The header's fixed part: the magic bytes, the version, the key's ID, the path's
    /// length (two bytes, big-endian); the path follows.
    static let fixedHeaderByteCount = magic.count + 1 + StoreKey.ID.byteCount + 2
    static let nonceByteCount = 12
    static let tagByteCount = 16
    /// The longest path a header holds.
    static let maxPathByteCount = Int(UInt16.max)

    /// How many bytes sealing adds to a document at `path`: the header (which names the
    /// path), the nonce and the tag.
    public static func overhead(forPath path: String) -> Int {
        fixedHeaderByteCount + path.utf8.count + nonceByteCount + tagByteCount
    }

    /// Whether `bytes` begin as a sealed document does (of any version): what tells an
    /// encrypted blob from a plain one without a key.
    public static func isSealed(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: magic)
    }

    /// The ID of the key that sealed `sealed`, or nil when it is not a sealed document of a
    /// format this version reads.
    public static func keyID(of sealed: [UInt8]) -> StoreKey.ID? {
        try? parts(of: sealed, at: nil).keyID
    }

    /// The path `sealed` was sealed for, as its header names it (not yet authenticated), or
    /// nil when it is not a sealed document of a format this version reads.
    public static func path(of sealed: [UInt8]) -> String? {
        try? parts(of: sealed, at: nil).path
    }

    static func header(keyID: StoreKey.ID, path: [UInt8]) -> [UInt8] {
        magic + [formatVersion] + keyID.bytes + [UInt8(path.count >> 8), UInt8(path.count & 0xFF)] + path
    }

    /// A sealed document cut into its header, its key's ID, the path it names and its box
    /// (nonce, ciphertext, tag); refused when it is not one, of another format, or too short
    /// to be one. `shown` names it in messages (its header's path when nil).
    static func parts(of sealed: [UInt8], at shown: String?) throws(CairnError) -> (
        header: [UInt8], keyID: StoreKey.ID, path: String, box: [UInt8]
    ) {
        let name = shown ?? "the blob"
        guard isSealed(sealed) else {
            throw CairnError(
                .corrupt,
                "cannot decrypt \(name): it is not encrypted (it does not begin with Cairn's cipher header); an encrypted store holds only documents sealed with its key — restore it from the store's history or its remote"
            )
        }
        if sealed.count > magic.count, sealed[magic.count] != formatVersion {
            throw CairnError(
                .corrupt,
                "cannot decrypt \(name): it is in cipher format \(sealed[magic.count]), and this version of Cairn reads format \(formatVersion) only; update Cairn"
            )
        }
        func cutShort(_ least: Int) -> CairnError {
            CairnError(
                .corrupt,
                "cannot decrypt \(name): the encrypted document is cut short (\(sealed.count) bytes, at least \(least) expected); restore it from the store's history or its remote"
            )
        }
        guard sealed.count >= fixedHeaderByteCount else { throw cutShort(fixedHeaderByteCount + 1 + nonceByteCount + tagByteCount) }
        let pathLength = Int(sealed[fixedHeaderByteCount - 2]) << 8 | Int(sealed[fixedHeaderByteCount - 1])
        let headerByteCount = fixedHeaderByteCount + pathLength
        let least = headerByteCount + nonceByteCount + tagByteCount
        guard pathLength > 0, sealed.count >= least else {
            throw cutShort(max(least, fixedHeaderByteCount + 1 + nonceByteCount + tagByteCount))
        }
        let header = Array(sealed[..<headerByteCount])
        let path = String(decoding: header[fixedHeaderByteCount...], as: UTF8.self)
        return (
            header, StoreKey.ID(headerBytes: header[(magic.count + 1)..<(magic.count + 1 + StoreKey.ID.byteCount)]), path,
            Array(sealed[headerByteCount...])
        )
    }
}
