extension DocumentCipher {
    /// What every sealed document begins with: "CAIRN" and a 0x00, which no JSON document
    /// holds, and which makes git treat the blob as binary.
    public static let magic: [UInt8] = Array("CAIRN".utf8) + [0]
    /// The format this version writes and reads.
    public static let formatVersion: UInt8 = 1
    /// The header's length: the magic bytes, the version, the key's ID.
    static let headerByteCount = magic.count + 1 + StoreKey.ID.byteCount
    static let nonceByteCount = 12
    static let tagByteCount = 16

    /// Whether `bytes` begin as a sealed document does (of any version): what tells an
    /// encrypted blob from a plain one without a key.
    public static func isSealed(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: magic)
    }

    /// The ID of the key that sealed `sealed`, or nil when it is not a sealed document of a
    /// format this version reads.
    public static func keyID(of sealed: [UInt8]) -> StoreKey.ID? {
        try? parts(of: sealed, at: "").keyID
    }

    static func header(keyID: StoreKey.ID) -> [UInt8] {
        magic + [formatVersion] + keyID.bytes
    }

    /// A sealed document cut into its header, its key's ID and its box (nonce, ciphertext,
    /// tag); refused when it is not one, of another format, or too short to be one.
    static func parts(of sealed: [UInt8], at path: String) throws(CairnError) -> (header: [UInt8], keyID: StoreKey.ID, box: [UInt8]) {
        guard isSealed(sealed) else {
            throw CairnError(
                .corrupt,
                "cannot decrypt \(path): it is not encrypted (it does not begin with Cairn's cipher header); an encrypted store holds only documents sealed with its key — restore it from the store's history or its remote")
        }
        if sealed.count > magic.count, sealed[magic.count] != formatVersion {
            throw CairnError(
                .corrupt,
                "cannot decrypt \(path): it is in cipher format \(sealed[magic.count]), and this version of Cairn reads format \(formatVersion) only; update Cairn")
        }
        let least = headerByteCount + nonceByteCount + tagByteCount
        guard sealed.count >= least else {
            throw CairnError(
                .corrupt,
                "cannot decrypt \(path): the encrypted document is cut short (\(sealed.count) bytes, at least \(least) expected); restore it from the store's history or its remote")
        }
        let header = Array(sealed[..<headerByteCount])
        return (header, StoreKey.ID(headerBytes: header[(magic.count + 1)...]), Array(sealed[headerByteCount...]))
    }
}
