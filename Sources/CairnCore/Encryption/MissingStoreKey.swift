/// The cause of a failure to open a sealed document whose key the keyring lacks: not a
/// document altered or out of place, but one this reader cannot judge. An audit tells the
/// two apart by it (``CairnError/missingStoreKey``).
public struct MissingStoreKey: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key that sealed the document.
    public var keyID: StoreKey.ID

    public var description: String { "no key \(keyID) among the keys given" }
}

extension CairnError {
    /// The key a sealed document needed and the keyring lacked, when that is why this failed
    /// (found anywhere along the chain of causes); nil otherwise.
    public var missingStoreKey: StoreKey.ID? {
        var cause: (any Error)? = self.cause
        while let current = cause {
            if let missing = current as? MissingStoreKey { return missing.keyID }
            cause = (current as? CairnError)?.cause
        }
        return nil
    }
}
