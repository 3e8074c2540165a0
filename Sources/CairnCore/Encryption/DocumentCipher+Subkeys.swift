import Crypto

extension DocumentCipher {
    /// The two keys derived from one store key (HKDF-SHA256, one `info` label each): one
    /// encrypts, the other makes nonces.
    struct Subkeys: Sendable {
        private let encryption: [UInt8]
        private let nonceMaking: [UInt8]

        init(deriving key: StoreKey) {
            encryption = Self.derive(key, label: "cairn document cipher 1: encryption")
            nonceMaking = Self.derive(key, label: "cairn document cipher 1: nonce")
        }

        var encryptionKey: SymmetricKey { SymmetricKey(data: encryption) }

        /// The nonce of `plaintext` at `path`: the first 12 bytes of
        /// HMAC-SHA256(nonceKey, path ‖ 0x00 ‖ plaintext).
        func nonce(path: [UInt8], plaintext: [UInt8]) -> [UInt8] {
            var mac = HMAC<SHA256>(key: SymmetricKey(data: nonceMaking))
            mac.update(data: path)
            mac.update(data: [0])
            mac.update(data: plaintext)
            return Array(mac.finalize().prefix(DocumentCipher.nonceByteCount))
        }

        private static func derive(_ key: StoreKey, label: String) -> [UInt8] {
            // No salt: the store key is already uniformly random (RFC 5869, §3.1).
            HKDF<SHA256>.deriveKey(inputKeyMaterial: key.symmetricKey, info: Array(label.utf8), outputByteCount: StoreKey.byteCount)
                .withUnsafeBytes { Array($0) }
        }
    }
}
