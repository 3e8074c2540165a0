#if canImport(Glibc)
import Glibc
#endif

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
        if access(path, F_OK) == 0 { return id }
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw posixFailure("mkdir", folder) }

        let stream = Zlib.stored(type.header(size: content.count) + content)
        var template = Array((folder + "/tmp_obj_XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd == -1 { throw posixFailure("mkstemp", folder) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try FileWriter.finish(fd, writing: stream, temporary: temporary, into: path, mode: 0o444)
        return id
    }
}
