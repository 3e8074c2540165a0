import Crypto

/// The 256-bit secret of an encrypted store, from which ``DocumentCipher`` derives the keys
/// it seals documents with; and its ``id``, which a sealed document carries so that a reader
/// knows which key of a ``Keyring`` made it.
///
/// The app keeps the key in the platform's secure storage (Keychain, KeyStore) and hands it
/// over as bytes or text; the command line reads it from a key file or an environment
/// variable (``Keyring/init(contentsOfKeyFile:)``, ``init(text:source:)``). Its description
/// shows the ID, never the key.
public struct StoreKey: Sendable, Hashable, CustomStringConvertible {
    /// How many bytes a key holds: 32 (AES-256).
    public static let byteCount = 32

    /// The key material. Kept as bytes, not as swift-crypto's `SymmetricKey` (which is not
    /// `Sendable`), and made into one where it is used.
    package let bytes: [UInt8]

    /// The key's ID, derived from the key (``ID``).
    public let id: ID

    /// A key from its 32 bytes, as the platform's secure storage returns them.
    public init(bytes: some Sequence<UInt8>) throws(CairnError) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount else {
            throw CairnError(
                .invalidInput, "a store key is \(Self.byteCount) bytes (256 bits), not \(bytes.count); give the key the store was made with"
            )
        }
        self.bytes = bytes
        id = ID(of: bytes)
    }

    /// A new key from the system's secure random generator, for a new encrypted store.
    public static func generate() -> StoreKey {
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Array($0) }
        // 32 random bytes are always a key.
        return StoreKey(checkedBytes: bytes)
    }

    private init(checkedBytes bytes: [UInt8]) {
        self.bytes = bytes
        id = ID(of: bytes)
    }

    /// The key as swift-crypto takes it.
    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    public var description: String { "store key \(id)" }

    // Two keys are the same key when their bytes are; swift-crypto's comparison of keys takes
    // the same time whatever the bytes, so a comparison does not tell how much of a key matched.
    public static func == (left: StoreKey, right: StoreKey) -> Bool {
        left.symmetricKey == right.symmetricKey
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
