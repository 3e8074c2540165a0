import Foundation

/// What a repository's `objects` folder holds: loose objects, packs, the objects in them, and
/// the bytes of all its files.
struct ObjectsOnDisk {
    var loose = 0
    var packs = 0
    var packed = 0
    var bytes = 0

    var objects: Int { loose + packed }

    init(repository: String) {
        let folder = repository + "/.git/objects"
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name
            let files = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            for file in files {
                let size = (try? manager.attributesOfItem(atPath: path + "/" + file)[.size] as? Int) ?? 0
                bytes += size
                if name.count == 2 { loose += 1 }
                if name == "pack", file.hasSuffix(".pack") { packs += 1 }
                if name == "pack", file.hasSuffix(".idx") { packed += Self.objectCount(ofIndex: path + "/" + file) }
            }
        }
    }

    /// The last entry of a pack index's fan-out table: how many objects it lists.
    static func objectCount(ofIndex path: String) -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: 8 + 1_020)) != nil,
            let bytes = try? handle.read(upToCount: 4), bytes.count == 4
        else { return 0 }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }
}
