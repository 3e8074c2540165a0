import CGit2
import GitFormat

extension Repository {
    /// An object as `git_odb_read` finds it, asked of the object database's backends in
    /// libgit2's order (by priority: memory, then alternates and the repository's own packs
    /// and loose files), and checked against its id with swift-crypto's SHA-1
    /// (``ObjectID/init(hashing:type:)``), which uses the processor's SHA instructions. Nil
    /// when no backend has it, and for the empty tree: the caller then asks `git_odb_read`,
    /// which asks every backend again, then lists the packs anew (one another git tool may
    /// have written since) and asks once more, and knows the empty tree without reading it.
    /// No lock is taken, where `git_odb_read` takes the database's: a handle is used by one
    /// thread at a time.
    ///
    /// libgit2 hashes what it reads with SHA-1 with collision detection, several times
    /// slower, and a merge or a checkpoint reads megabytes of documents and trees. What the
    /// detection guards against, a crafted pair of objects with one id, is refused when an
    /// object enters a repository through a fetch or a push (libgit2's indexer and git hash
    /// every object received with it); on a read the hash only has to tell a damaged object
    /// from the one its id names, which any SHA-1 does. A property test reads blobs and trees
    /// from every backend both ways, and a loose file holding another object's content
    /// (`BackendReadTests`).
    func readFromBackends(_ id: ObjectID, type: ObjectType) throws(GitError) -> [UInt8]? {
        guard id != ObjectID.emptyTree else { return nil }
        return try withObjectDatabase { (database) throws(GitError) -> [UInt8]? in
            var raw = id.raw
            for position in 0..<git_odb_num_backends(database) {
                var backend: UnsafeMutablePointer<git_odb_backend>?
                try check(git_odb_get_backend(&backend, database, position), "git_odb_get_backend")
                guard let backend, let read = backend.pointee.read else { continue }
                var data: UnsafeMutableRawPointer?
                var size = 0
                var found = GIT_OBJECT_INVALID
                let result = read(&data, &size, &found, backend, &raw)
                if result == GIT_ENOTFOUND.rawValue || result == GIT_PASSTHROUGH.rawValue { continue }
                try check(result, "git_odb_read")
                defer { git_odb_backend_data_free(backend, data) }
                let content = size > 0 && data != nil ? Array(UnsafeRawBufferPointer(start: data, count: size)) : []
                // As libgit2 checks: the id first, then the type asked for.
                let kind = UInt8(exactly: found.rawValue).flatMap(ObjectType.init(rawValue:))
                let hashed = kind.map { ObjectID(hashing: content, type: $0) }
                guard let kind, let hashed, hashed == id else {
                    var mismatch = failure(
                        .mismatch, "object hash mismatch - expected \(id.hex) but got \(hashed?.hex ?? "an object of no type")",
                        "git_odb_read")
                    mismatch.category = Int32(GIT_ERROR_ODB.rawValue)
                    throw mismatch
                }
                guard kind == type else {
                    throw failure(.generic, "object \(id.hex) is not a \(type.name)", "git_odb_read")
                }
                // The backends that missed left their "not found" as the thread's last error,
                // which a later failure that sets none would be reported with.
                git_error_clear()
                return content
            }
            return nil
        }
    }
}
