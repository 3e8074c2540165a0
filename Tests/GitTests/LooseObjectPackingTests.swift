import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// Loose objects are packed once they pass a threshold, as `git gc --auto` does and libgit2
/// never does: no loose file is left, every object still reads, and git finds the store sound.
@Suite struct LooseObjectPackingTests {
    let temporary = TemporaryFolder("cairn-loose")
    var folder: String { temporary.path }

    func looseFiles(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path + "/.git/objects")
            .filter { $0.count == 2 }
            .flatMap { try FileManager.default.contentsOfDirectory(atPath: path + "/.git/objects/" + $0) }
    }

    @Test func passingTheThresholdPacksEveryLooseObject() throws {
        let path = folder + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        // Loose blobs, written outside a pack, until the estimate passes the threshold.
        var written: [ObjectID: [UInt8]] = [:]
        var number = 0
        while repository.estimatedLooseObjects() <= Repository.looseLimit {
            let bytes = Array("{\"n\":\(number)}\n".utf8)
            written[try repository.writeBlob(bytes)] = bytes
            number += 1
        }
        #expect(try looseFiles(path).count == written.count)
        // The next pack written (a checkpoint's) packs them too.
        let tree = try repository.packingWrites { () throws -> ObjectID in
            let blob = try repository.writeBlob(Array("{}\n".utf8))
            return try repository.updateTree(ObjectID.emptyTree, with: [.upsert(path: "d.json", id: blob, mode: 0o100644)]).id
        }
        #expect(try looseFiles(path).isEmpty)
        #expect(repository.estimatedLooseObjects() == 0)
        for (id, bytes) in written { #expect(try repository.blobContent(id) == bytes) }
        let reopened = try Repository(openingAt: path)
        #expect(try reopened.entry(at: "d.json", inTree: tree) != nil)
        for (id, bytes) in written.prefix(50) { #expect(try reopened.blobContent(id) == bytes) }
        let fsck = try runProcess("/usr/bin/git", ["-C", path, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stderr)")
        let counted = try runProcess("/usr/bin/git", ["-C", path, "count-objects", "-v"]).stdout
        #expect(counted.contains("count: 0\n"), "\(counted)")
        #expect(counted.contains("in-pack: \(written.count + 2)\n"), "\(counted)")
    }

    @Test func belowTheThresholdLooseObjectsStay() throws {
        let path = folder + "/s"
        let repository = try Repository.create(at: path, initialBranch: "main")
        let blob = try repository.writeBlob(Array("{\"loose\":true}\n".utf8))
        try repository.packingWrites {
            _ = try repository.writeBlob(Array("{}\n".utf8))
        }
        #expect(try looseFiles(path).count == 1)
        #expect(try repository.blobContent(blob) == Array("{\"loose\":true}\n".utf8))
    }

    /// libgit2 keeps every pack it loaded mapped, even once removed; after packs are
    /// combined the repository's objects are opened again, so a long-running process keeps
    /// no removed pack mapped (as a checkpointing app would, thousands of times).
    @Test func combinedPacksAreNotKeptMapped() throws {
        let path = folder + "/long-running"
        let repository = try Repository.create(at: path, initialBranch: "main")
        var written: [ObjectID: [UInt8]] = [:]
        for number in 0..<60 {
            try repository.packingWrites {
                let bytes = Array("{\"n\":\(number)}\n".utf8)
                written[try repository.writeBlob(bytes)] = bytes
            }
            // Read what is there, as a checkpoint does: libgit2 maps the packs it looks in.
            for (id, bytes) in written.prefix(5) { #expect(try repository.blobContent(id) == bytes) }
        }
        #expect(repository.packs().count <= Repository.packLimit)
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let removed = maps.split(separator: "\n").filter { $0.contains(path) && $0.contains("(deleted)") }
        #expect(removed.isEmpty, "removed packs still mapped: \(removed.prefix(3))")
        for (id, bytes) in written { #expect(try repository.blobContent(id) == bytes) }
    }
}
