/// One entry of a tree object: a name, the object it names and its file mode.
public struct TreeEntry: Hashable, Sendable {
    /// The name exactly as stored (any bytes but `/` and NUL are possible in a hostile tree).
    public var nameBytes: [UInt8]
    public var id: ObjectID
    /// The git file mode: `0o100644` a file, `0o100755` an executable, `0o120000` a symbolic
    /// link, `0o040000` a folder, `0o160000` a submodule.
    public var mode: UInt32

    public init(nameBytes: [UInt8], id: ObjectID, mode: UInt32) {
        self.nameBytes = nameBytes
        self.id = id
        self.mode = mode
    }

    /// The name as text (bytes that are not UTF-8 show as U+FFFD).
    public var name: String { String(decoding: nameBytes, as: UTF8.self) }

    /// Whether the entry is a folder.
    public var isTree: Bool { mode == 0o040000 }
    /// Whether the entry names a blob: a file (executable or not) or a symbolic link.
    public var isBlob: Bool { mode & 0o170000 == 0o100000 || mode == 0o120000 }
    /// Whether the entry is a plain, non-executable file: the only kind a store holds.
    public var isRegularFile: Bool { mode == 0o100644 }
}
