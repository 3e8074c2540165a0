/// One entry of git's index: a path, the blob staged for it, and the file's stat data as it
/// was when staged (git compares the stat data to tell whether the file changed since).
public struct IndexEntry: Hashable, Sendable {
    public var ctimeSeconds: UInt32 = 0
    public var ctimeNanoseconds: UInt32 = 0
    public var mtimeSeconds: UInt32 = 0
    public var mtimeNanoseconds: UInt32 = 0
    public var device: UInt32 = 0
    public var inode: UInt32 = 0
    /// `0o100644` for a normal file, `0o100755` for an executable one.
    public var mode: UInt32 = 0o100644
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0
    public var size: UInt32 = 0
    public var id: ObjectID
    /// The flags word without the name length: assume-valid, extended, stage.
    var flags: UInt16 = 0
    /// The extended flags (index version 3 and later), when the extended flag is set.
    var extendedFlags: UInt16 = 0
    /// The path relative to the working tree, as bytes (git sorts entries by these bytes).
    public var pathBytes: [UInt8]

    public init(path: String, id: ObjectID) {
        self.pathBytes = Array(path.utf8)
        self.id = id
    }

    public var path: String { String(decoding: pathBytes, as: UTF8.self) }

    /// The stage of a conflicted entry (1–3); 0 for a normal one.
    public var stage: Int { Int((flags >> 12) & 0x3) }
}

extension IndexEntry {
    /// Whether `stat` data of a file still matches what the entry recorded, as git checks it
    /// (times, size, inode, device, ownership); a file whose data matches is taken as unchanged.
    public func matches(_ other: IndexEntry) -> Bool {
        mtimeSeconds == other.mtimeSeconds && mtimeNanoseconds == other.mtimeNanoseconds
            && ctimeSeconds == other.ctimeSeconds && ctimeNanoseconds == other.ctimeNanoseconds
            && size == other.size && inode == other.inode && device == other.device
            && uid == other.uid && gid == other.gid && mode == other.mode
    }
}
