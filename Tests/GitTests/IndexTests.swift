import CairnTestSupport
import Foundation
import Testing

@testable import Git
@testable import GitFormat

/// The index Cairn writes, whole or split, must be what git reads: after every change `git
/// status` is clean, `git ls-files` lists the commit, and whatever git writes back Cairn reads.
@Suite struct IndexTests {
    let temporary = TemporaryFolder("cairn-index")
    var folder: String { temporary.path }
    let someone = Signature(name: "Test", email: "test@example.invalid", time: 1_730_000_000)

    /// A repository with a little helper to write files, stage them and commit, as a store does.
    final class Playground {
        let repository: Repository
        let root: String
        var head: ObjectID?
        let someone: Signature
        /// The `core.splitIndex` the index is written under (nil: not set).
        let splitIndex: Bool?

        init(_ root: String, someone: Signature, splitIndex: Bool? = nil) throws {
            self.root = root
            self.someone = someone
            self.splitIndex = splitIndex
            repository = try Repository.create(at: root, initialBranch: "main")
        }

        func openIndex() throws -> Index { try Index.open(gitdir: repository.gitdir, splitIndex: splitIndex) }

        func commit(writing files: [String: String], deleting: [String] = []) throws {
            let index = try openIndex()
            var updates: [TreeUpdate] = []
            for (path, text) in files {
                let absolute = root + "/" + path
                try FileManager.default.createDirectory(
                    atPath: (absolute as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: absolute, atomically: false, encoding: .utf8)
                let id = try repository.writeBlob(Array(text.utf8))
                try index.stage(try IndexEntry.forFile(atPath: absolute, path: path, id: id))
                updates.append(.upsert(path: path, id: id, mode: 0o100644))
            }
            for path in deleting {
                try FileManager.default.removeItem(atPath: root + "/" + path)
                try index.remove(path: path)
                updates.append(.remove(path: path))
            }
            let baseline = try head.map { try repository.commit($0).treeID } ?? repository.emptyTree()
            let tree = try repository.updateTree(baseline, with: updates).id
            try index.write()
            head = try repository.createCommit(
                tree: tree, parents: head.map { [$0] } ?? [], message: "c\n",
                author: someone, committer: someone, updating: "HEAD")
        }

        func git(_ arguments: String...) throws -> ProcessResult {
            try runProcess("/usr/bin/git", ["-C", root] + arguments)
        }

        /// git agrees the index, the commit and the working tree are one.
        func expectClean(sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try git("status", "--porcelain").stdout == "", sourceLocation: sourceLocation)
            #expect(try git("diff", "--cached", "--quiet").status == 0, sourceLocation: sourceLocation)
            #expect(try git("ls-files").stdout == git("ls-tree", "-r", "--name-only", "HEAD").stdout, sourceLocation: sourceLocation)
        }
    }

    @Test func byDefaultTheIndexIsWholeAndVersion2() throws {
        let play = try Playground(folder + "/r", someone: someone)
        var files: [String: String] = [:]
        for number in 0..<300 { files["users/u1/books/b\(number).json"] = "{\"n\":\(number)}\n" }
        try play.commit(writing: files)
        try play.commit(writing: ["users/u1/books/b7.json": "{\"n\":\"seven\"}\n"], deleting: ["users/u1/books/b9.json"])
        try play.expectClean()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: play.repository.gitdir + "index")))
        #expect(bytes[4..<8] == [0, 0, 0, 2])
        #expect(!bytes.indices.dropLast(3).contains { Array(bytes[$0..<$0 + 4]) == Array("link".utf8) })
        #expect(try sharedParts(play).isEmpty)
        #expect(try play.openIndex().allEntries().count == 299)
    }

    @Test func gitReadsTheSplitIndexThroughAddsChangesAndDeletes() throws {
        let play = try Playground(folder + "/r", someone: someone, splitIndex: true)
        var files: [String: String] = [:]
        for number in 0..<300 { files["users/u1/books/b\(number).json"] = "{\"n\":\(number)}\n" }
        try play.commit(writing: files)
        try play.expectClean()
        #expect(FileManager.default.fileExists(atPath: play.repository.gitdir + "index"))
        // Small changes go to the split part; the shared part stays.
        let sharedBefore = try sharedParts(play)
        try play.commit(
            writing: ["users/u1/books/b7.json": "{\"n\":\"seven\"}\n", "users/u1/books/new.json": "{}\n"],
            deleting: ["users/u1/books/b9.json"])
        try play.expectClean()
        #expect(try sharedParts(play) == sharedBefore)
        // Deleted then written again: a replacement of the same shared entry.
        try play.commit(writing: ["users/u1/books/b9.json": "{\"back\":true}\n"], deleting: ["users/u1/books/new.json"])
        try play.expectClean()
        let index = try play.openIndex()
        #expect(
            try index.entry(for: "users/u1/books/b7.json")?.id
                == (try play.repository.hashFile(atPath: play.root + "/users/u1/books/b7.json")))
        #expect(try index.entry(for: "users/u1/books/new.json") == nil)
        #expect(try index.allEntries().count == 300)
        #expect(try play.git("fsck", "--strict").status == 0)
    }

    @Test func manyChangesMakeANewSharedPartAndDropTheOldOnes() throws {
        let play = try Playground(folder + "/r", someone: someone, splitIndex: true)
        try play.commit(writing: ["a.json": "{}\n"])
        for round in 0..<4 {
            var files: [String: String] = [:]
            for number in 0..<(Index.reshareThreshold(1) + 10) { files["d/f\(number).json"] = "{\"r\":\(round)}\n" }
            try play.commit(writing: files)
            try play.expectClean()
        }
        #expect(try sharedParts(play).count <= 2)
    }

    @Test(arguments: [nil, true, false])
    func readsWhatGitWritesBackWholeSplitOrVersion4(splitIndex: Bool?) throws {
        let play = try Playground(folder + "/r", someone: someone, splitIndex: splitIndex)
        var files: [String: String] = [:]
        for number in 0..<50 { files["users/u1/x/f\(number).json"] = "{\"n\":\(number)}\n" }
        try play.commit(writing: files)
        let commands = [
            ["update-index", "--no-split-index"], ["update-index", "--index-version", "4"],
            ["update-index", "--split-index"], ["update-index", "--index-version", "3"],
        ]
        for (round, command) in commands.enumerated() {
            #expect(try play.git(command[0], command[1], command.count > 2 ? command[2] : "--really-refresh").status == 0)
            try play.commit(
                writing: ["users/u1/x/f1.json": "{\"round\":\(round)}\n"],
                deleting: ["users/u1/x/f\(10 + round).json"])
            try play.expectClean()
        }
        // git's own split index with its own shared part.
        #expect(try play.git("-c", "core.splitIndex=true", "update-index", "--split-index").status == 0)
        try play.commit(writing: ["users/u1/x/f3.json": "{\"v\":3}\n"])
        try play.expectClean()
    }

    @Test func aPlainGitAddAfterCairnIsSeenByCairn() throws {
        let play = try Playground(folder + "/r", someone: someone)
        try play.commit(writing: ["a.json": "{}\n", "b.json": "{}\n"])
        try "{\"hand\":1}\n".write(toFile: play.root + "/c.json", atomically: false, encoding: .utf8)
        #expect(try play.git("add", "c.json").status == 0)
        let index = try play.openIndex()
        #expect(try index.entry(for: "c.json") != nil)
        #expect(try index.entry(for: "a.json") != nil)
    }

    func sharedParts(_ play: Playground) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: play.repository.gitdir).filter { $0.hasPrefix("sharedindex.") }.sorted()
    }
}

/// Failures of the index reach the store as ``GitError``s with the index's own messages, as
/// every other failure of the Git module.
@Suite struct RepositoryIndexErrorTests {
    let temporary = TemporaryFolder("cairn-index-errors")
    let someone = Signature(name: "Test", email: "test@example.invalid", time: 1_730_000_000)

    @Test func aMissingSharedPartIsNotFound() throws {
        let play = try IndexTests.Playground(temporary.path + "/r", someone: someone, splitIndex: true)
        try play.commit(writing: ["a.json": "{}\n", "b.json": "{}\n"])
        let shared = try #require(
            try FileManager.default.contentsOfDirectory(atPath: play.repository.gitdir)
                .first { $0.hasPrefix("sharedindex.") })
        try FileManager.default.removeItem(atPath: play.repository.gitdir + shared)
        do {
            _ = try play.repository.openIndex()
            Issue.record("opened an index whose shared part is gone")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.function == "cairn_index_read")
            #expect(error.message == "the index links to \(play.repository.gitdir + shared), which is missing")
        }
    }

    @Test func aLockFileLeftBehindIsLocked() throws {
        let play = try IndexTests.Playground(temporary.path + "/r", someone: someone)
        try play.commit(writing: ["a.json": "{}\n"])
        _ = FileManager.default.createFile(atPath: play.repository.gitdir + "index.lock", contents: nil)
        let index = try play.repository.openIndex()
        try index.remove(path: "a.json")
        do {
            try index.write()
            Issue.record("wrote the index past a lock file")
        } catch {
            #expect(error.code == .locked)
            #expect(error.systemErrorCode == nil)
            #expect(error.message == "\(play.repository.gitdir)index.lock exists: another git process is writing the index")
        }
    }

    @Test func aFileThatIsGoneIsASystemFailure() throws {
        let play = try IndexTests.Playground(temporary.path + "/r", someone: someone)
        do {
            _ = try IndexEntry.forFile(atPath: play.root + "/gone.json", path: "gone.json", id: .emptyTree)
            Issue.record("described a file that does not exist")
        } catch {
            #expect(error.code == .generic)
            #expect(error.function == "lstat")
            #expect(error.systemErrorCode == ENOENT)
            #expect(error.message == "lstat \(play.root)/gone.json: No such file or directory")
        }
    }
}
