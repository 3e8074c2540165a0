import GitFormat

/// The large trees a repository handle wrote itself, kept by id so the next checkpoint that
/// changes the same folders splices them without reading them back.
///
/// Every object read is hashed against its id (``GitLibrary``); a collection of
/// 100,000 documents is a tree of several megabytes, and a store that checkpoints through
/// one handle would otherwise read back, inflate and hash the tree it wrote a moment before.
/// The bytes here never left memory and their id was computed from them when they were
/// written, so they are the object's content by construction.
///
/// Only trees of at least ``smallest`` bytes are kept (smaller ones cost little to read, and
/// libgit2 caches them), up to ``capacity`` bytes in all, the oldest dropped first; a tree a
/// splice replaced is dropped at once. Damage done on disk to a kept tree after it was
/// written goes unseen by this handle; the next handle opened reads the disk.
struct WrittenTrees {
    static let smallest = 16 << 10
    static let capacity = 16 << 20

    private var bytes: [ObjectID: [UInt8]] = [:]
    private var order: [ObjectID] = []
    private var total = 0

    /// The content of the tree `id`, if this handle wrote it and still keeps it.
    subscript(id: ObjectID) -> [UInt8]? {
        bytes[id]
    }

    /// Keeps `content`, the tree whose id is `id`, when it is large enough to be worth it.
    mutating func keep(_ content: [UInt8], as id: ObjectID) {
        guard content.count >= Self.smallest, content.count <= Self.capacity, bytes[id] == nil else { return }
        while total + content.count > Self.capacity, !order.isEmpty {
            let oldest = order.removeFirst()
            total -= bytes.removeValue(forKey: oldest)?.count ?? 0
        }
        bytes[id] = content
        order.append(id)
        total += content.count
    }

    /// Drops the tree `id`: a splice replaced it with a newer version of its folder.
    mutating func forget(_ id: ObjectID) {
        guard let content = bytes.removeValue(forKey: id) else { return }
        order.removeAll { $0 == id }
        total -= content.count
    }
}
