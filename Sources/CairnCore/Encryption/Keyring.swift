/// The keys of an encrypted store: the ``current`` key, which seals every document written
/// from now on, and the ``previous`` keys, which only open what they sealed before a rotation.
///
/// A rotation puts a new key first (``rotated(to:)``) and re-encrypts the current documents
/// under it; the commits before it keep their blobs, sealed under the older keys, and stay
/// readable as long as the keyring holds those keys. A sealed document names its key by
/// ``StoreKey/ID``, so opening picks the key without trying each.
public struct Keyring: Sendable, Hashable {
    /// The key that seals.
    public let current: StoreKey
    /// Keys that open what they sealed before a rotation, newest first, without the current
    /// key and without repeats.
    public let previous: [StoreKey]

    /// A keyring of `current` and `previous` keys; a previous key that repeats the current
    /// one or another previous one is dropped.
    public init(current: StoreKey, previous: [StoreKey] = []) {
        self.current = current
        var seen: Set<StoreKey.ID> = [current.id]
        self.previous = previous.filter { seen.insert($0.id).inserted }
    }

    /// Every key, the current one first.
    public var keys: [StoreKey] { [current] + previous }

    /// The key whose ID is `id`, if the keyring holds it.
    public func key(withID id: StoreKey.ID) -> StoreKey? {
        keys.first { $0.id == id }
    }

    /// The keyring after a rotation to `key`: `key` seals, and every key of this keyring
    /// still opens, the current one first among the previous.
    public func rotated(to key: StoreKey) -> Keyring {
        Keyring(current: key, previous: keys)
    }
}
