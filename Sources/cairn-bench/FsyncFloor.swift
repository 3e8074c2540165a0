import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The disk's time for the fsyncs a durable checkpoint makes, issued alone: the physical
/// limit a checkpoint is held to.
///
/// A checkpoint of the library fsyncs seven things: its new pack, the pack's index and their
/// folder; the store's index and `.git` (where the index is renamed into place); the branch
/// and its folder. Each measure writes files of the sizes the last checkpoint wrote (its
/// newest pack and pack index, the store's index, a branch of 41 bytes) into a folder of its
/// own on the same disk, untimed, then times only the seven fsyncs, in the checkpoint's order.
struct FsyncFloor {
    /// The folder the files are written in (made, and emptied, by ``measure(like:)``).
    let folder: String

    /// The seven fsyncs' time in milliseconds, with files the sizes of those the last
    /// checkpoint of the repository at `gitdir` wrote.
    func measure(like gitdir: String) throws -> Double {
        let packs = gitdir + "/objects/pack"
        let newest = try FileManager.default.contentsOfDirectory(atPath: packs)
            .filter { $0.hasSuffix(".pack") }
            .max { try Self.modified(packs + "/" + $0) < Self.modified(packs + "/" + $1) }
        guard let newest else { throw Command.Failure(description: "fsync floor: no pack in \(packs)") }
        let stem = String(newest.dropLast(".pack".count))
        let sizes = (
            pack: try Self.size(packs + "/" + newest), index: try Self.size(packs + "/" + stem + ".idx"),
            storeIndex: try Self.size(gitdir + "/index")
        )

        try? FileManager.default.removeItem(atPath: folder)
        let packFolder = folder + "/objects/pack"
        let branchFolder = folder + "/refs/heads"
        for made in [packFolder, branchFolder] {
            try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        }
        let files = [
            (packFolder + "/p.pack", sizes.pack), (packFolder + "/p.idx", sizes.index),
            (folder + "/index", sizes.storeIndex), (branchFolder + "/main", 41),
        ]
        var opened: [String: Int32] = [:]
        defer { for descriptor in opened.values { close(descriptor) } }
        for (path, size) in files {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw Command.Failure(description: "fsync floor: cannot create \(path)") }
            opened[path] = descriptor
            var bytes = [UInt8](repeating: 0, count: size)
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ size) }
            guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == size else {
                throw Command.Failure(description: "fsync floor: cannot write \(path)")
            }
        }
        for path in [packFolder, folder, branchFolder] {
            let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Command.Failure(description: "fsync floor: cannot open \(path)") }
            opened[path] = descriptor
        }
        let order = [
            packFolder + "/p.pack", packFolder + "/p.idx", packFolder, folder + "/index", folder,
            branchFolder + "/main", branchFolder,
        ]
        return try Stopwatch.milliseconds {
            for path in order where fsync(opened[path]!) != 0 {
                throw Command.Failure(description: "fsync floor: fsync \(path): \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func size(_ path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw Command.Failure(description: "fsync floor: cannot stat \(path)") }
        return Int(status.st_size)
    }

    private static func modified(_ path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw Command.Failure(description: "fsync floor: cannot stat \(path)") }
        return status.st_mtim.tv_sec * 1_000_000_000 + status.st_mtim.tv_nsec
    }
}
