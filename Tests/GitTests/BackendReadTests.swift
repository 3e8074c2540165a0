import CGit2
import CairnMerge
import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// Blobs and trees are read from the object database's backends and hashed with
/// swift-crypto's SHA-1 instead of through `git_odb_read`, which hashes with SHA-1 with
/// collision detection. Whatever the object and wherever it is — loose, in a pack Cairn
/// wrote, in a pack git wrote with deltas, in memory, in a pack that appeared after the
/// handle first looked — both give the same bytes, and a damaged or missing object is an
/// error both ways.
@Suite struct BackendReadTests {
    let temporary = TemporaryFolder("cairn-backend-reads")
    var folder: String { temporary.path }

    /// The object as libgit2 reads it: `git_odb_read`, which hashes it against its id.
    func reference(_ id: ObjectID, in repository: Repository) throws -> (type: git_object_t, bytes: [UInt8]) {
        try repository.withObjectDatabase { (database) throws(GitError) in
            var object: OpaquePointer?
            var raw = id.raw
            try check(git_odb_read(&object, database, &raw), "git_odb_read")
            defer { git_odb_object_free(object) }
            let size = git_odb_object_size(object)
            let bytes = size == 0 ? [] : Array(UnsafeRawBufferPointer(start: git_odb_object_data(object), count: size))
            return (git_odb_object_type(object), bytes)
        }
    }

    /// Random blobs: empty, tiny, and up to 8 KB of JSON-like text, each a few fields away
    /// from the others, so that git stores many as deltas.
    func randomBlobs(_ count: Int, _ random: inout SplitMix) -> [[UInt8]] {
        (0..<count).map { number in
            let fields = Int(random.next() % 600)
            let changed = Set((0..<3).map { _ in Int(random.next() % 600) })
            let text = (0..<fields).map { field in
                "\"f\(field)\": \(changed.contains(field) ? random.next() % 1_000 : UInt64(field * 7_919 % 1_000))"
            }.joined(separator: ",\n")
            return number == 0 ? [] : Array("{\(text)}\n".utf8)
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func everyObjectReadsAsLibgit2ReadsIt(seed: UInt64) throws {
        var random = SplitMix(seed: seed)
        let path = folder + "/r\(seed)"
        let repository = try Repository.create(at: path, initialBranch: "main")
        // Loose objects, then a pack of Cairn's, then more loose ones that git packs with deltas.
        var ids: [ObjectID] = []
        for bytes in randomBlobs(20, &random) { ids.append(try repository.writeBlob(bytes)) }
        try repository.packingWrites {
            for bytes in randomBlobs(20, &random) { ids.append(try repository.writeBlob(bytes)) }
            let updates = ids.enumerated().map {
                TreeUpdate.upsert(path: "d\($0.offset % 7)/f\($0.offset).json", id: $0.element, mode: 0o100644)
            }
            ids.append(try repository.updateTree(ObjectID.emptyTree, with: updates).id)
        }
        for bytes in randomBlobs(20, &random) { ids.append(try repository.writeBlob(bytes)) }
        let fresh = try Repository(openingAt: path)
        for id in ids {
            let expected = try reference(id, in: fresh)
            let type: ObjectType = expected.type == GIT_OBJECT_TREE ? .tree : .blob
            #expect(try fresh.readFromBackends(id, type: type) == expected.bytes)
            #expect(try fresh.rawObject(id, type: type) == expected.bytes)
            if type == .blob { #expect(try fresh.blobContent(id) == expected.bytes) }
        }

        // git packs every object again, with deltas, and drops the loose files; a new handle
        // reads its pack.
        let pack = try packObjects(ids, in: path)
        let verify = try git("verify-pack", "-v", pack, in: path)
        #expect(verify.stdout.contains("chain length = "), "git made no delta: the story tells nothing")
        let repacked = try Repository(openingAt: path)
        for id in ids {
            let expected = try reference(id, in: repacked)
            let type: ObjectType = expected.type == GIT_OBJECT_TREE ? .tree : .blob
            #expect(try repacked.readFromBackends(id, type: type) == expected.bytes)
        }
    }

    /// `git pack-objects` of `ids` (deltas searched for among them), then
    /// `git prune-packed`: the objects are in git's new pack only. Its index's path.
    func packObjects(_ ids: [ObjectID], in path: String) throws -> String {
        let packed = try runProcess(
            "/usr/bin/git", ["-C", path, "pack-objects", "--window=50", ".git/objects/pack/pack"],
            input: ids.map(\.hex).joined(separator: "\n") + "\n")
        #expect(packed.status == 0, "\(packed.stderr)")
        #expect(try git("prune-packed", in: path).status == 0)
        return path + "/.git/objects/pack/pack-" + packed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + ".idx"
    }

    /// Objects a handle keeps in memory (an audit's) read from that memory.
    @Test func objectsKeptInMemoryRead() throws {
        let repository = try Repository.create(at: folder + "/m", initialBranch: "main")
        try repository.keepNewObjectsInMemory()
        let bytes = Array("{\"inMemory\":true}\n".utf8)
        let blob = try repository.writeBlob(bytes)
        #expect(try repository.readFromBackends(blob, type: .blob) == bytes)
        #expect(try reference(blob, in: repository).bytes == bytes)
    }

    /// A pack another git tool wrote after the handle listed the packs is not seen by the
    /// backends; the read then goes through `git_odb_read`, which lists them again.
    @Test func aPackWrittenByGitAfterTheHandleOpenedIsFound() throws {
        let path = folder + "/late"
        let repository = try Repository.create(at: path, initialBranch: "main")
        let first = try repository.packingWrites { try repository.writeBlob(Array("{\"first\":1}\n".utf8)) }
        #expect(try repository.blobContent(first) == Array("{\"first\":1}\n".utf8))
        let late = Array("{\"late\":1}\n".utf8)
        let hashed = try runProcess(
            "/usr/bin/git", ["-C", path, "hash-object", "-w", "--stdin"], input: String(decoding: late, as: UTF8.self))
        let id = try #require(ObjectID(hex: hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        _ = try packObjects([id], in: path)
        #expect(try repository.readFromBackends(id, type: .blob) == nil, "the backends saw the new pack: the story tells nothing")
        #expect(try repository.blobContent(id) == late)
        #expect(try repository.rawObject(id, type: .blob) == late)
    }

    /// A loose file whose content is another object's: it inflates, but its hash is not its
    /// name. Both ways it is a damaged store, never the other object's bytes.
    @Test func anObjectWhoseContentIsNotItsIdIsDamage() throws {
        let path = folder + "/swap"
        let repository = try Repository.create(at: path, initialBranch: "main")
        let kept = try repository.writeBlob(Array("{\"kept\":1}\n".utf8))
        let other = try repository.writeBlob(Array("{\"other\":2}\n".utf8))
        func file(_ id: ObjectID) -> String { path + "/.git/objects/" + id.hex.prefix(2) + "/" + id.hex.dropFirst(2) }
        try FileManager.default.removeItem(atPath: file(kept))
        try FileManager.default.copyItem(atPath: file(other), toPath: file(kept))
        let fresh = try Repository(openingAt: path)
        let error = try #require(throws: GitError.self) { try fresh.readFromBackends(kept, type: .blob) }
        #expect(error.code == .mismatch)
        #expect(error.isDamage)
        let referenceError = try #require(throws: GitError.self) { try reference(kept, in: fresh) }
        #expect(referenceError.code == .mismatch)
        #expect(try #require(throws: GitError.self) { try fresh.blobContent(kept) }.isDamage)
    }

    /// An object of another type than asked is an error, as `git_blob_lookup` makes it.
    @Test func aTreeAskedForAsABlobIsAnError() throws {
        let repository = try Repository.create(at: folder + "/type", initialBranch: "main")
        let blob = try repository.writeBlob(Array("{}\n".utf8))
        let tree = try repository.updateTree(ObjectID.emptyTree, with: [.upsert(path: "a.json", id: blob, mode: 0o100644)]).id
        #expect(throws: GitError.self) { try repository.blobContent(tree) }
        #expect(throws: GitError.self) { try repository.rawObject(blob, type: .tree) }
    }

    /// The backends that missed set libgit2's last error; a read that found the object
    /// leaves none behind, as `git_odb_read` leaves none, for a later failure that sets
    /// none to be reported with.
    @Test func aReadLeavesNoErrorBehind() throws {
        let repository = try Repository.create(at: folder + "/clear", initialBranch: "main")
        _ = try repository.packingWrites { try repository.writeBlob(Array("{\"packed\":1}\n".utf8)) }
        let loose = try repository.writeBlob(Array("{\"loose\":1}\n".utf8))
        #expect(try repository.readFromBackends(loose, type: .blob) != nil)
        #expect(git_error_last() == nil)
    }

    /// The empty tree is libgit2's to give, as it gives it without reading it.
    @Test func theEmptyTreeIsLeftToLibgit2() throws {
        let repository = try Repository.create(at: folder + "/empty", initialBranch: "main")
        #expect(try repository.readFromBackends(ObjectID.emptyTree, type: .tree) == nil)
        #expect(try repository.rawObject(ObjectID.emptyTree, type: .tree) == [])
    }

    /// An object no backend has is nil from the backends and an error as before.
    @Test func aMissingObjectIsNotFound() throws {
        let repository = try Repository.create(at: folder + "/missing", initialBranch: "main")
        let absent = ObjectID(hashing: Array("never written".utf8), type: .blob)
        #expect(try repository.readFromBackends(absent, type: .blob) == nil)
        let error = try #require(throws: GitError.self) { try repository.blobContent(absent) }
        #expect(error.code == .notFound)
        #expect(error.isDamage)
    }
}
