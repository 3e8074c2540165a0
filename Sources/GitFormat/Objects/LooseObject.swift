import CairnSystem

/// A loose object file (`objects/<2 digits>/<38 digits>`): the object's header and content
/// in a zlib stream, here of stored (uncompressed) blocks, which git and libgit2 read as any
/// other stream.
package enum LooseObject {
    /// Writes an object into the objects of `gitdir` (a `.git` folder, with a trailing `/`),
    /// fsynced with its folder, and returns its id. Writing is skipped when the file exists.
    package static func write(_ content: [UInt8], type: ObjectType, into gitdir: String) throws(GitFormatError) -> ObjectID {
        let id = ObjectID(hashing: content, type: type)
        let folder = gitdir + "objects/" + String(id.hex.prefix(2))
        let path = folder + "/" + String(id.hex.dropFirst(2))
        if Syscalls.exists(path) { return id }
        if case .failure(let error) = Syscalls.makeFolder(folder), error != .exists { throw posixFailure("mkdir", folder, error) }

        let stream = Zlib.stored(type.header(size: content.count) + content)
        switch Syscalls.makeUniqueFile(folder + "/tmp_obj_XXXXXX") {
        case .success(let temporary):
            try FileWriter.finish(temporary.descriptor, writing: stream, temporary: temporary.path, into: path, mode: 0o444)
        case .failure(let error):
            throw posixFailure("mkstemp", folder, error)
        }
        return id
    }
}
