import CGit2
import GitFormat

extension Repository {
    /// The content of an object, which must be of `type`, checked against its id: a blob or
    /// a tree as the object database's backends give it (``readFromBackends(_:type:)``),
    /// else, and for other types, through `git_odb_read` (libgit2 checks the content against
    /// the id); or a large tree this handle wrote (``WrittenTrees``): such a tree is read
    /// even while it waits in the pending pack, which libgit2 cannot see yet.
    func rawObject(_ id: ObjectID, type: ObjectType) throws(GitError) -> [UInt8] {
        if type == .tree, let written = writtenTrees[id] { return written }
        if type == .blob || type == .tree, let content = try readFromBackends(id, type: type) { return content }
        var object: OpaquePointer?
        var raw = id.raw
        try withObjectDatabase { (database) throws(GitError) in
            try check(git_odb_read(&object, database, &raw), "git_odb_read")
        }
        defer { git_odb_object_free(object) }
        guard git_odb_object_type(object) == type.raw else {
            throw failure(.generic, "object \(id.hex) is not a \(type.name)", "git_odb_read")
        }
        let size = git_odb_object_size(object)
        guard size > 0, let data = git_odb_object_data(object) else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }

    /// Writes an object as a loose object file (see ``LooseObject``) and returns its id.
    /// Writing is skipped when the object exists. Inside ``packingWrites(_:)`` the object
    /// goes to the pending pack instead; once new objects are kept in memory
    /// (``keepNewObjectsInMemory()``), to libgit2's object database, which keeps it there.
    /// A tree of ``WrittenTrees/smallest`` bytes or more is also kept in ``writtenTrees``.
    func writeLooseObject(_ content: [UInt8], type: ObjectType) throws(GitError) -> ObjectID {
        let id =
            if pendingPack != nil {
                pendingPack!.add(content, type: type)
            } else if !packsWrites {
                try writeToDatabase(content, type: type)
            } else {
                try converting { () throws(GitFormatError) in try LooseObject.write(content, type: type, into: gitdir) }
            }
        if type == .tree { writtenTrees.keep(content, as: id) }
        return id
    }

    /// Writes an object through libgit2's object database (`git_odb_write`): to its first
    /// backend that writes.
    private func writeToDatabase(_ content: [UInt8], type: ObjectType) throws(GitError) -> ObjectID {
        var id = git_oid()
        try withObjectDatabase { (database) throws(GitError) in
            try check(
                content.withUnsafeBytes { git_odb_write(&id, database, $0.baseAddress, $0.count, type.raw) },
                "git_odb_write")
        }
        return ObjectID(id)
    }

    /// Runs `body` with the repository's object database (`git_repository_odb`), freed after.
    @discardableResult
    func withObjectDatabase<T>(_ body: (OpaquePointer?) throws(GitError) -> T) throws(GitError) -> T {
        var database: OpaquePointer?
        try check(git_repository_odb(&database, handle), "git_repository_odb")
        defer { git_odb_free(database) }
        return try body(database)
    }
}
