import CairnSystem

/// New objects gathered in memory and written as one pack file with its index, instead of
/// one loose file each.
///
/// A checkpoint or a merge writes tens to thousands of objects at once. As loose objects
/// each is a file created, fsynced and renamed, and creating files is the slowest thing a
/// file system does (ext4's inode allocator grows slow once many files were deleted). As a
/// pack they are two files and two fsyncs. The objects are stored whole (no deltas) in zlib
/// streams of stored blocks, like Cairn's loose trees; git and libgit2 read them as any pack
/// (version 2, index version 2).
package struct PackWriter {
    private var entries: [(id: ObjectID, type: ObjectType, content: [UInt8])] = []
    private var ids: Set<ObjectID> = []

    package init() {}

    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }
    /// The objects gathered, in the order they were added.
    package var objectIDs: [ObjectID] { entries.map(\.id) }

    /// Adds an object (once, however often it is given) and returns its id
    /// (``ObjectID/init(hashing:type:)``).
    package mutating func add(_ content: [UInt8], type: ObjectType) -> ObjectID {
        let id = ObjectID(hashing: content, type: type)
        if ids.insert(id).inserted {
            entries.append((id, type, content))
        }
        return id
    }

    /// Drops the objects `shouldRemove` picks.
    package mutating func removeAll(where shouldRemove: (ObjectID) -> Bool) {
        entries.removeAll { shouldRemove($0.id) }
        ids = Set(entries.map(\.id))
    }

    /// The pack and its index: `pack-<checksum>.pack` and `.idx` bytes, and the checksum.
    package func encoded() throws(GitFormatError) -> (pack: [UInt8], index: [UInt8], name: String) {
        var pack: [UInt8] = Array("PACK".utf8)
        pack.appendBigEndian(UInt32(2))
        pack.appendBigEndian(UInt32(entries.count))
        var located: [(id: ObjectID, offset: Int, crc: UInt32)] = []
        located.reserveCapacity(entries.count)
        for entry in entries {
            let offset = pack.count
            guard offset < 0x8000_0000 else {
                throw failure(.tooLarge, "a pack of new objects would pass 2 GB", "cairn_pack_write")
            }
            // Type and size: 3 bits of type, then the size 4 bits first and 7 bits a byte after.
            var size = entry.content.count
            var byte = UInt8(truncatingIfNeeded: entry.type.rawValue << 4) | UInt8(size & 0x0F)
            size >>= 4
            while size > 0 {
                pack.append(byte | 0x80)
                byte = UInt8(size & 0x7F)
                size >>= 7
            }
            pack.append(byte)
            pack += Zlib.stored(entry.content)
            located.append((entry.id, offset, CRC32.checksum(pack[offset...])))
        }
        let checksum = SHA1.hash(pack)
        pack += checksum

        located.sort { $0.id.bytes.lexicographicallyPrecedes($1.id.bytes) }
        var index: [UInt8] = [0xFF, 0x74, 0x4F, 0x63]
        index.appendBigEndian(UInt32(2))
        var fanout = [UInt32](repeating: 0, count: 256)
        for entry in located { fanout[Int(entry.id.bytes[0])] += 1 }
        var running: UInt32 = 0
        for count in fanout {
            running += count
            index.appendBigEndian(running)
        }
        for entry in located { index += entry.id.bytes }
        for entry in located { index.appendBigEndian(entry.crc) }
        for entry in located { index.appendBigEndian(UInt32(entry.offset)) }
        index += checksum
        index += SHA1.hash(index)
        let name = checksum.hexDigits
        return (pack, index, name)
    }

    /// Writes the pack and then its index into `objects/pack` (each fsynced, then renamed, so
    /// that a reader finding the index finds the whole pack), then fsyncs the folder.
    package func write(into gitdir: String) throws(GitFormatError) {
        guard !entries.isEmpty else { return }
        let (pack, index, name) = try encoded()
        let folder = gitdir + "objects/pack"
        if case .failure(let error) = Syscalls.makeFolder(folder), error != .exists { throw posixFailure("mkdir", folder, error) }
        for (bytes, suffix) in [(pack, "pack"), (index, "idx")] {
            let temporary: (descriptor: Int32, path: String)
            switch Syscalls.makeUniqueFile(folder + "/tmp_pack_XXXXXX") {
            case .success(let made): temporary = made
            case .failure(let error): throw posixFailure("mkstemp", folder, error)
            }
            try FileWriter.finish(
                temporary.descriptor, writing: bytes, temporary: temporary.path, into: "\(folder)/pack-\(name).\(suffix)",
                mode: 0o444, syncFolder: false)
        }
        try FileWriter.syncFolder(of: folder + "/pack-\(name).idx")
    }
}
