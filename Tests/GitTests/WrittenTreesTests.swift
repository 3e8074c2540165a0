import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// A large tree a handle wrote is read back from memory, as the bytes whose hash is its id;
/// what a failed write left behind is never served; the memory is bounded.
@Suite struct WrittenTreesTests {
    let temporary = TemporaryFolder("cairn-written-trees")
    var folder: String { temporary.path }

    /// `count` documents at the top, one blob for all: a tree of about 40 bytes an entry.
    func documents(_ count: Int, blob: ObjectID) -> [TreeUpdate] {
        (0..<count).map { TreeUpdate.upsert(path: "d\($0).json", id: blob, mode: 0o100644) }
    }

    /// The next splice of a large folder does not read its tree back from disk: with every
    /// byte of the pack that holds it overwritten, the handle that wrote it still splices it,
    /// and the result is the tree git builds from the same documents.
    @Test func theNextSpliceReadsTheFolderItWroteFromMemory() throws {
        let path = folder + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        let root = try repository.packingWrites { () throws -> ObjectID in
            let blob = try repository.writeBlob(Array("{}\n".utf8))
            return try repository.updateTree(ObjectID.emptyTree, with: documents(1_000, blob: blob)).id
        }
        let kept = try #require(repository.writtenTrees[root])
        #expect(ObjectID(hashing: kept, type: .tree) == root)

        let pack = path + "/.git/objects/pack/" + (try #require(repository.packs().first)).name + ".pack"
        let original = try Data(contentsOf: URL(fileURLWithPath: pack))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pack)
        try Data(repeating: 0, count: original.count).write(to: URL(fileURLWithPath: pack))
        // The disk cannot give the tree any more: a handle of its own fails to read it.
        #expect(throws: GitError.self) {
            try Repository(openingAt: path, checkingPacks: false).rawObject(root, type: .tree)
        }
        #expect(try repository.rawObject(root, type: .tree) == kept)
        let blob = try repository.writeBlob(Array("{\"new\":1}\n".utf8))
        let next = try repository.updateTree(root, with: [.upsert(path: "new.json", id: blob, mode: 0o100644)]).id
        // The version it replaced is dropped; the new one is kept.
        #expect(repository.writtenTrees[root] == nil)
        #expect(repository.writtenTrees[next] != nil)
        try Data(original).write(to: URL(fileURLWithPath: pack))

        let fresh = try Repository(openingAt: path)
        let expected = try fresh.updateTreeWithLibgit2(root, with: [.upsert(path: "new.json", id: blob, mode: 0o100644)])
        #expect(next == expected)
    }

    /// Trees written inside a `packingWrites` whose body throws are forgotten with the pack
    /// they were to go into: a read of one is an error, as it is on disk.
    @Test func aFailedWriteLeavesNoTreeBehind() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        struct Stop: Error {}
        var written: ObjectID?
        #expect(throws: Stop.self) {
            try repository.packingWrites {
                let blob = try repository.writeBlob(Array("{}\n".utf8))
                let root = try repository.updateTree(ObjectID.emptyTree, with: documents(1_000, blob: blob)).id
                #expect(repository.writtenTrees[root] != nil)
                written = root
                throw Stop()
            }
        }
        let id = try #require(written)
        #expect(repository.writtenTrees[id] == nil)
        #expect(throws: GitError.self) { try repository.rawObject(id, type: .tree) }
    }

    /// A batch whose pack cannot be written, its error caught inside the batch, leaves none
    /// of its trees behind either.
    @Test func aPackThatCannotBeWrittenTakesItsTreesAlong() throws {
        let path = folder + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        let packFolder = path + "/.git/objects/pack"
        try repository.packingWrites {
            let blob = try repository.writeBlob(Array("{}\n".utf8))
            let root = try repository.updateTree(ObjectID.emptyTree, with: documents(1_000, blob: blob)).id
            #expect(repository.writtenTrees[root] != nil)
            // A file where the pack folder was: the pack cannot be written.
            try FileManager.default.removeItem(atPath: packFolder)
            try Data().write(to: URL(fileURLWithPath: packFolder))
            #expect(throws: GitError.self) { try repository.writePendingObjects() }
            #expect(repository.writtenTrees[root] == nil)
            try FileManager.default.removeItem(atPath: packFolder)
            try FileManager.default.createDirectory(atPath: packFolder, withIntermediateDirectories: false)
        }
    }

    /// Small trees are not kept; large ones up to the capacity, the oldest dropped first; a
    /// forgotten one gives its room back.
    @Test func keepsLargeTreesUpToItsCapacity() {
        var trees = WrittenTrees()
        let small = [UInt8](repeating: 1, count: WrittenTrees.smallest - 1)
        trees.keep(small, as: ObjectID(hashing: small, type: .tree))
        #expect(trees[ObjectID(hashing: small, type: .tree)] == nil)

        let size = WrittenTrees.capacity / 4
        let contents = (0..<6).map { [UInt8](repeating: UInt8($0), count: size) }
        let ids = contents.map { ObjectID(hashing: $0, type: .tree) }
        for (content, id) in zip(contents, ids) { trees.keep(content, as: id) }
        #expect(ids.map { trees[$0] != nil } == [false, false, true, true, true, true])
        #expect(trees[ids[5]] == contents[5])

        let tooLarge = [UInt8](repeating: 9, count: WrittenTrees.capacity + 1)
        trees.keep(tooLarge, as: ObjectID(hashing: tooLarge, type: .tree))
        #expect(trees[ObjectID(hashing: tooLarge, type: .tree)] == nil)
        #expect(trees[ids[5]] != nil)

        // A forgotten tree frees its room: one more fits without dropping the oldest.
        trees.forget(ids[5])
        #expect(trees[ids[5]] == nil)
        let another = [UInt8](repeating: 7, count: size)
        trees.keep(another, as: ObjectID(hashing: another, type: .tree))
        #expect([ids[2], ids[3], ids[4]].allSatisfy { trees[$0] != nil })
        #expect(trees[ObjectID(hashing: another, type: .tree)] == another)
    }
}
