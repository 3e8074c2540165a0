import Crypto
import GitFormat

extension StoreKey {
    /// What names a key without giving it away: the first 8 bytes of SHA-256 of a fixed label
    /// and the key, shown as 16 hex digits. A sealed document's header carries it, so that a
    /// ``Keyring`` opens the document with the key that made it, and an error can say which
    /// key is missing. Eight bytes leave two keys of one keyring with the same ID a chance
    /// of 2⁻⁶⁴; the label keeps the ID apart from any other hash of the key.
    public struct ID: Sendable, Hashable, CustomStringConvertible {
        /// How many bytes an ID holds.
        public static let byteCount = 8

        /// The ID's bytes, as a header holds them.
        public let bytes: [UInt8]

        /// The ID of the key `key`.
        init(of key: [UInt8]) {
            var hash = SHA256()
            hash.update(data: Array("cairn store key id".utf8) + [0])
            hash.update(data: key)
            bytes = Array(hash.finalize().prefix(Self.byteCount))
        }

        /// An ID read from a header.
        init(headerBytes: some Sequence<UInt8>) {
            bytes = Array(headerBytes)
        }

        /// The ID in hex, 16 digits.
        public var description: String { bytes.hexDigits }
    }
}
