import CairnMerge
import CairnSystem
import Crypto
import GitFormat

/// A folder of Git LFS objects, laid out as git-lfs lays them: the object `oid` (its SHA-256
/// in hex) is the file `aa/bb/<oid>` below the folder. A store keeps the assets it has read
/// or added in `.git/lfs/objects` (where `git lfs` looks too), and a path remote keeps its
/// users' assets in `<remote>/lfs/objects` (where git-lfs's file transfers put them).
///
/// A server may keep its objects flat, one file per oid (giftless's local storage): such a
/// folder is read in both layouts (``existingPath(of:)``).
package struct AssetObjects: Sendable {
    /// The folder.
    package let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    /// The objects of the store whose git folder is `gitdir`: `<gitdir>lfs/objects`.
    package static func local(gitdir: String) -> AssetObjects {
        AssetObjects(folder: gitdir + "lfs/objects")
    }

    /// The objects of a bare repository at `path` (a path remote): `<path>/lfs/objects`.
    package static func bare(at path: String) -> AssetObjects {
        AssetObjects(folder: path + "/lfs/objects")
    }

    /// Where the object `oid` is kept in git-lfs's layout.
    package func path(of oid: String) -> String {
        let bytes = Array(oid.utf8)
        let first = String(decoding: bytes.prefix(2), as: UTF8.self)
        let second = String(decoding: bytes.dropFirst(2).prefix(2), as: UTF8.self)
        return "\(folder)/\(first)/\(second)/\(oid)"
    }

    /// The file of the object `oid` in either layout, or nil when the folder lacks it.
    package func existingPath(of oid: String) -> String? {
        for path in [path(of: oid), folder + "/" + oid] where FileSystem.kind(path) == .file {
            return path
        }
        return nil
    }

    /// Whether the folder holds the object `oid`.
    package func contains(_ oid: String) -> Bool {
        existingPath(of: oid) != nil
    }

    /// The size in bytes of the object `oid`, or nil when the folder lacks it.
    package func size(of oid: String) -> Int64? {
        guard let path = existingPath(of: oid),
            case .success(let status) = Syscalls.status(of: path, followingLinks: false)
        else { return nil }
        return Int64(status.size)
    }

    /// Every object the folder holds, in either layout.
    package func oids() -> Set<String> {
        var found: Set<String> = []
        for first in FileSystem.names(in: folder) {
            if AssetReference.isOID(first) {
                found.insert(first)
                continue
            }
            for second in FileSystem.names(in: folder + "/" + first) {
                for name in FileSystem.names(in: folder + "/" + first + "/" + second) where AssetReference.isOID(name) {
                    found.insert(name)
                }
            }
        }
        return found
    }

    /// Copies the file at `source` in as an object, hashing it on the way: its reference
    /// (oid and size). A file larger than `limit` bytes is refused before anything is written.
    /// When `expected` names the oid, bytes with another hash are refused and dropped.
    /// `isNew`: the folder did not hold the object before.
    @discardableResult
    package func add(copying source: String, limit: Int64? = nil, expected: String? = nil) throws(CairnError) -> (
        reference: AssetReference, isNew: Bool
    ) {
        try FileSystem.makeFolders(folder)
        let temporary = folder + "/\(StoreLayout.temporaryFilePrefix)\(Syscalls.processID)-\(UInt64.random(in: 0...UInt64.max))"
        let (oid, size): (String, Int64)
        do throws(CairnError) {
            (oid, size) = try Self.copyHashing(source, to: temporary, limit: limit)
        } catch {
            _ = Syscalls.unlink(temporary)
            throw error
        }
        if let expected, expected != oid {
            _ = Syscalls.unlink(temporary)
            throw CairnError(.corrupt, "the asset \(expected) arrived with other bytes (SHA-256 \(oid)); it was not kept — try again")
        }
        let target = path(of: oid)
        if FileSystem.kind(target) == .file {
            _ = Syscalls.unlink(temporary)
            return (AssetReference(oid: oid, size: size), false)
        }
        do throws(CairnError) {
            try FileSystem.makeFolders(FileSystem.parent(of: target))
            try FileSystem.check(Syscalls.rename(temporary, to: target), "rename", target)
        } catch {
            _ = Syscalls.unlink(temporary)
            throw error
        }
        return (AssetReference(oid: oid, size: size), true)
    }

    /// Removes the object `oid` (in either layout); whether there was one.
    @discardableResult
    package func remove(_ oid: String) throws(CairnError) -> Bool {
        var removed = false
        for path in [path(of: oid), folder + "/" + oid] where FileSystem.kind(path) == .file {
            removed = try FileSystem.removeFile(path) || removed
            FileSystem.removeEmptyFolders(from: FileSystem.parent(of: path), upTo: folder)
        }
        return removed
    }

    /// Copies `source` to `target` (created), returning the SHA-256 in hex and the size;
    /// refuses a source larger than `limit` before writing anything.
    static func copyHashing(_ source: String, to target: String, limit: Int64?) throws(CairnError) -> (String, Int64) {
        let input = try FileSystem.check(Syscalls.open(source, .reading), "open", source)
        defer { _ = Syscalls.close(input) }
        let status = try FileSystem.check(Syscalls.status(of: input), "stat", source)
        guard status.kind == .file else {
            throw CairnError(.invalidInput, "\(source) is not a regular file; an asset is a file")
        }
        if let limit, Int64(status.size) > limit {
            throw CairnError(
                .invalidInput, "\(source) is \(status.size) bytes; this asset field takes at most \(limit) bytes — nothing was written")
        }
        let output = try FileSystem.check(Syscalls.open(target, .replacing), "create", target)
        var closed = false
        defer { if !closed { _ = Syscalls.close(output) } }
        var hash = SHA256()
        var size: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try FileSystem.check(buffer.withUnsafeMutableBytes { Syscalls.read(input, into: $0) }, "read", source)
            if count == 0 { break }
            size += Int64(count)
            if let limit, size > limit {
                throw CairnError(
                    .invalidInput,
                    "\(source) grew past \(limit) bytes while it was read; this asset field takes at most \(limit) bytes — nothing was written"
                )
            }
            let written = buffer.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Result<Void, Syscalls.Errno> in
                let chunk = UnsafeRawBufferPointer(rebasing: bytes[..<count])
                hash.update(bufferPointer: chunk)
                return Syscalls.writeAll(output, from: chunk)
            }
            try FileSystem.check(written, "write", target)
        }
        try FileSystem.check(Syscalls.fsync(output), "fsync", target)
        closed = true
        try FileSystem.check(Syscalls.close(output), "close", target)
        let oid = Array(hash.finalize()).hexDigits
        return (oid, size)
    }
}
