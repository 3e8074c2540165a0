import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// Cairn merges a store's small packs as `git repack --geometric` would, and must leave the
/// pack folder as git's own repack leaves it: packs git marks as not to be touched stay, and a
/// pack taken away takes with it every file git keeps beside it, so that git finds nothing
/// stray or missing afterwards.
@Suite struct CombiningPacksFollowsGitsRulesTests {
    let temporary = TemporaryFolder("cairn-combine-rules")

    /// A repository with one commit of one file, which git packs itself with `repack`'s
    /// `arguments`: a pack of three objects, the smallest there, so any merge takes it.
    func repositoryWithGitsPack(_ arguments: [String]) throws -> (repository: Repository, path: String) {
        let path = temporary.path + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        try Data("first\n".utf8).write(to: URL(fileURLWithPath: path + "/first.txt"))
        try git("add", "first.txt", in: path)
        try git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qm", "first", in: path)
        let repack = try runProcess("/usr/bin/git", ["-C", path, "repack", "-q"] + arguments)
        #expect(repack.status == 0, "\(repack.stderr)")
        return (repository, path)
    }

    /// Enough checkpoint-sized packs that the small ones are merged (past ``Repository/packLimit``).
    func writeSmallPacks(_ repository: Repository) throws {
        for round in 0..<(Repository.packLimit + 6) {
            try repository.packingWrites {
                for number in 0..<5 {
                    _ = try repository.writeBlob(Array("{\"round\": \(round), \"number\": \(number)}\n".utf8))
                }
            }
        }
    }

    func packFolder(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path + "/.git/objects/pack").sorted()
    }

    func expectGitFindsNothingWrong(_ path: String) throws {
        let fsck = try git("fsck", "--full", "--strict", in: path)
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
        let count = try git("count-objects", "-v", in: path)
        #expect(count.stdout.split(separator: "\n").contains("garbage: 0"), "\(count.stdout)\(count.stderr)")
    }

    /// A `.keep` file (a pack a user keeps, or one `git receive-pack` is still taking in) and
    /// a cruft pack (`.mtimes`: unreachable objects waiting to expire) are never repacked by
    /// git's geometric repack, nor by Cairn.
    @Test(arguments: ["keep", "promisor", "cruft"]) func aPackGitLeavesAloneIsLeftAlone(_ kind: String) throws {
        let (repository, path) = try repositoryWithGitsPack(["-d"])
        if kind != "cruft" {
            let pack = try #require(try packFolder(path).first { $0.hasSuffix(".pack") })
            #expect(FileManager.default.createFile(atPath: path + "/.git/objects/pack/" + pack.dropLast(5) + "." + kind, contents: Data()))
        } else {
            // One unreachable object, which git moves to a cruft pack of its own.
            try runProcess("/usr/bin/git", ["-C", path, "hash-object", "-w", "--stdin"], input: "loose and unreachable\n")
            let cruft = try git("repack", "-q", "-d", "--cruft", in: path)
            #expect(cruft.status == 0, "\(cruft.stderr)")
        }
        let marker = kind == "cruft" ? ".mtimes" : "." + kind
        let before = try packFolder(path)
        let marked = before.filter { $0.hasSuffix(marker) }.map { String($0.dropLast(marker.count)) }
        try #require(marked.count == 1, "\(before)")
        try writeSmallPacks(repository)
        let files = try packFolder(path)
        #expect(
            files.contains(marked[0] + ".pack") && files.contains(marked[0] + ".idx") && files.contains(marked[0] + marker),
            "the marked pack is where git left it: \(files)")
        #expect(repository.packs().count < Repository.packLimit + 6, "the other small packs were merged: \(files)")
        try expectGitFindsNothingWrong(path)
    }

    /// git writes a reverse index (`.rev`) and a bitmap (`.bitmap`) beside a pack; left behind
    /// once their pack is gone, git reports them as garbage ("no corresponding .idx or .pack").
    @Test func theFilesBesideAMergedPackGoWithIt() throws {
        let (repository, path) = try repositoryWithGitsPack(["-a", "-d", "-b", "--write-bitmap-index"])
        try git("config", "pack.writeReverseIndex", "true", in: path)
        try #require(try git("repack", "-q", "-a", "-d", "-b", in: path).status == 0)
        let before = try packFolder(path)
        let gits = try #require(before.first { $0.hasSuffix(".bitmap") }).dropLast(".bitmap".count)
        try #require(before.contains(gits + ".rev"), "\(before)")
        try writeSmallPacks(repository)
        let left = try packFolder(path).filter { $0.hasPrefix(gits) }
        #expect(left.isEmpty, "git's pack was merged, and nothing named after it is left: \(left)")
        try expectGitFindsNothingWrong(path)
    }

    /// A multi-pack index (`git multi-pack-index write`, `git maintenance`) names the packs it
    /// covers; git's repack removes it when it removes one of them, and so does Cairn: a stale
    /// one makes `git fsck` fail ("failed to load pack entry").
    @Test func aMultiPackIndexNamingAMergedPackIsRemoved() throws {
        let (repository, path) = try repositoryWithGitsPack(["-d"])
        let midx = try git("multi-pack-index", "write", in: path)
        try #require(midx.status == 0, "\(midx.stderr)")
        try #require(FileManager.default.fileExists(atPath: path + "/.git/objects/pack/multi-pack-index"))
        try writeSmallPacks(repository)
        let after = try packFolder(path)
        #expect(!after.contains { $0.hasPrefix("multi-pack-index") }, "\(after)")
        try expectGitFindsNothingWrong(path)
        let log = try git("log", "--format=%s", in: path)
        #expect(log.stdout == "first\n", "\(log.stderr)")
    }

    /// While git writes a multi-pack index (its `.lock` is there), neither it nor any pack
    /// is removed: the merged pack is written, and the packs it merged stay for a later merge.
    @Test func nothingIsRemovedWhileGitWritesAMultiPackIndex() throws {
        let (repository, path) = try repositoryWithGitsPack(["-d"])
        try #require(try git("multi-pack-index", "write", in: path).status == 0)
        let lock = path + "/.git/objects/pack/multi-pack-index.lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
        let gits = try #require(try packFolder(path).first { $0.hasSuffix(".idx") && $0.hasPrefix("pack-") })
        try writeSmallPacks(repository)
        let files = try packFolder(path)
        #expect(files.contains("multi-pack-index") && files.contains("multi-pack-index.lock") && files.contains(gits), "\(files)")
        #expect(repository.packs().count > Repository.packLimit, "the merged packs stay: \(files)")
        try FileManager.default.removeItem(atPath: lock)
        let fsck = try git("fsck", "--full", "--strict", in: path)
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
    }

    /// Packs listed but gone before they are measured (another process merged them, or
    /// `git gc` ran) leave nothing to merge: the merge stops, it does not fail.
    @Test func packsGoneWhileTheyAreListedStopTheMerge() throws {
        let path = temporary.path + "/r"
        let repository = try Repository.create(at: path, initialBranch: "main")
        for number in 0..<(Repository.packLimit + 4) {
            let name = path + "/.git/objects/pack/pack-" + String(repeating: String(number % 10), count: 40) + String(number) + ".idx"
            #expect(FileManager.default.createFile(atPath: name, contents: Data()))
        }
        try repository.combineSmallPacks()
        #expect(try packFolder(path).count == Repository.packLimit + 4, "nothing was written or removed")
    }
}
