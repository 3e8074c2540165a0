import Crypto

/// SHA-1, for the checksums git puts at the end of the index files and packs Cairn writes
/// itself (object ids are computed by libgit2). swift-crypto's, which runs BoringSSL's
/// assembly: a whole index of 100,000 documents (about 10 MB) is hashed in a few milliseconds.
enum SHA1 {
    /// The digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        Array(Insecure.SHA1.hash(data: bytes))
    }
}
