import CGit2

#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// The content of an object, which must be of `type` (`git_odb_read`; libgit2 checks the
    /// content against the id).
    func rawObject(_ id: ObjectID, type: git_object_t) throws(GitError) -> [UInt8] {
        var database: OpaquePointer?
        try check(git_repository_odb(&database, handle), "git_repository_odb")
        defer { git_odb_free(database) }
        var object: OpaquePointer?
        var raw = id.raw
        try check(git_odb_read(&object, database, &raw), "git_odb_read")
        defer { git_odb_object_free(object) }
        guard git_odb_object_type(object) == type else {
            throw failure(.generic, "object \(id.hex) is not a \(String(cString: git_object_type2string(type)))", "git_odb_read")
        }
        let size = git_odb_object_size(object)
        guard size > 0, let data = git_odb_object_data(object) else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: size))
    }

    /// Writes an object as a loose object file whose zlib stream stores the bytes in stored
    /// (uncompressed) blocks, fsynced with its folder, and returns its id (`git_odb_hash`).
    /// Writing is skipped when the object exists. Inside ``packingWrites(_:)`` the object
    /// goes to the pending pack instead.
    func writeLooseObject(_ content: [UInt8], type: git_object_t) throws(GitError) -> ObjectID {
        if pendingPack != nil { return try pendingPack!.add(content, type: type) }
        var oid = git_oid()
        try check(content.withUnsafeBytes { git_odb_hash(&oid, $0.baseAddress, $0.count, type) }, "git_odb_hash")
        let id = ObjectID(oid)
        let folder = gitdir + "objects/" + String(id.hex.prefix(2))
        let path = folder + "/" + String(id.hex.dropFirst(2))
        if access(path, F_OK) == 0 { return id }
        if mkdir(folder, 0o755) != 0, errno != EEXIST { throw posixFailure("mkdir", folder) }

        let header = Array("\(String(cString: git_object_type2string(type))) \(content.count)\0".utf8)
        let stream = Zlib.stored(header + content)
        var template = Array((folder + "/tmp_obj_XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd == -1 { throw posixFailure("mkstemp", folder) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        try FileWriter.finish(fd, writing: stream, temporary: temporary, into: path, mode: 0o444)
        return id
    }
}

/// The parts of the zlib format (RFC 1950, 1951) Cairn writes itself.
enum Zlib {
    /// A zlib stream holding `data` in stored blocks: header, blocks of at most 65,535 bytes
    /// each with its length and the length's complement, and the Adler-32 checksum.
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        output.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final = offset + length == data.count
            output.append(final ? 1 : 0)
            output.append(UInt8(length & 0xFF))
            output.append(UInt8(length >> 8))
            output.append(UInt8(~length & 0xFF))
            output.append(UInt8((~length >> 8) & 0xFF))
            output += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        output.appendBigEndian(adler32(data))
        return output
    }

    /// The Adler-32 checksum of `data`.
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var offset = 0
        // 5,552 bytes is the most that can be summed before b may overflow 32 bits.
        while offset < data.count {
            let end = min(offset + 5_552, data.count)
            for index in offset..<end {
                a &+= UInt32(data[index])
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            offset = end
        }
        return b << 16 | a
    }
}
