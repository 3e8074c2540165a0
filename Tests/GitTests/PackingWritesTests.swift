import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// The packs Cairn writes for a checkpoint or a merge must be packs git itself accepts, and
/// merging many small packs must keep every object.
@Suite struct PackingWritesTests {
    let temporary = TemporaryFolder("cairn-packs")
    var folder: String { temporary.path }

    /// Blobs and trees written inside `packingWrites` land in one pack that `git fsck` finds
    /// sound, that git reads back byte for byte, and that libgit2 reads at once.
    @Test func writesAPackGitAccepts() throws {
        let path = folder + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        var contents: [String: [UInt8]] = [:]
        let tree = try repository.packingWrites { () throws -> ObjectID in
            var updates: [TreeUpdate] = []
            for number in 0..<200 {
                // Sizes across the one-byte and multi-byte size headers, up to a 70,000-byte
                // blob that needs two stored zlib blocks.
                let size = [0, 1, 15, 16, 127, 128, 2_047, 70_000][number % 8]
                let bytes = Array("\(number):".utf8) + [UInt8](repeating: UInt8(ascii: "a") + UInt8(number % 26), count: size)
                let file = "docs/\(number % 7)/d\(number).json"
                contents[file] = bytes
                updates.append(.upsert(path: file, id: try repository.writeBlob(bytes), mode: 0o100644))
            }
            let tree = try repository.updateTree(ObjectID.emptyTree, with: updates).id
            // Nothing is on disk before the end.
            #expect(repository.packs().isEmpty)
            return tree
        }
        #expect(repository.packs().count == 1)
        let loose = try FileManager.default.contentsOfDirectory(atPath: path + "/.git/objects")
            .filter { $0.count == 2 }
        #expect(loose.isEmpty, "objects were written loose: \(loose)")
        let fsck = try git("fsck", "--full", "--strict", "--no-dangling", in: path)
        #expect(fsck.status == 0, "\(fsck.stderr)")
        let verify = try runProcess(
            "/usr/bin/git",
            [
                "verify-pack", "-v",
                path + "/.git/objects/pack/" + repository.packs()[0].name + ".idx",
            ])
        #expect(verify.status == 0, "\(verify.stderr)")
        for (file, bytes) in contents.sorted(by: { $0.key < $1.key }).prefix(20) {
            let shown = try runProcess("/usr/bin/git", ["-C", path, "cat-file", "blob", "\(tree.hex):\(file)"])
            #expect(Array(shown.stdout.utf8) == bytes, "\(file)")
            let id = try #require(try repository.entry(at: file, inTree: tree)?.id)
            #expect(try repository.blobContent(id) == bytes)
        }
    }

    /// An object the store has already is not written again, and a body that throws leaves
    /// nothing behind.
    @Test func skipsKnownObjectsAndDropsFailedOnes() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        let known = try repository.writeBlob(Array("known\n".utf8))
        _ = try repository.packingWrites { try repository.writeBlob(Array("known\n".utf8)) }
        #expect(repository.packs().isEmpty)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try repository.packingWrites { () throws -> Void in
                _ = try repository.writeBlob(Array("dropped\n".utf8))
                throw Stop()
            }
        }
        #expect(repository.packs().isEmpty)
        #expect(try repository.blobContent(known) == Array("known\n".utf8))
    }

    /// Past the limit the small packs are merged, with every object kept, and the packs left
    /// stay few: each merge leaves them in a geometric progression.
    @Test func combinesSmallPacks() throws {
        let path = folder + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        var written: [(ObjectID, [UInt8])] = []
        for round in 0..<200 {
            try repository.packingWrites {
                for number in 0..<5 {
                    let bytes = Array("{\"round\": \(round), \"number\": \(number)}\n".utf8)
                    written.append((try repository.writeBlob(bytes), bytes))
                }
            }
        }
        let packs = repository.packs().map(\.size).sorted()
        #expect(packs.count <= Repository.packLimit, "\(packs)")
        for (id, bytes) in written {
            #expect(try repository.blobContent(id) == bytes)
        }
        let fsck = try git("fsck", "--full", "--strict", in: path)
        #expect(fsck.status == 0, "\(fsck.stderr)")
        let count = try git("count-objects", "-v", in: path)
        #expect(count.stdout.contains("in-pack: \(written.count)"), "\(count.stdout)")
    }
}
