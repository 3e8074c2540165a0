import CairnTestSupport
import Foundation
import Git
import GitFormat
import Testing

@Suite struct RepositoryTests {
    let temporary = TemporaryFolder("cairn-git")
    var folder: String { temporary.path }

    let someone = Signature(name: "Test", email: "test@example.invalid", time: 1_730_000_000)

    @Test func aMissingRepositoryIsAnErrorWithLibgit2sMessage() throws {
        do {
            _ = try Repository(openingAt: folder + "/nothing-here")
            Issue.record("opened a repository that does not exist")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.function == "git_repository_open_ext")
            #expect(error.message.contains("nothing-here"))
            #expect(GitError.Code.notFound ~= error)
            #expect(!(GitError.Code.locked ~= error))
        }
    }

    @Test func createsANonBareRepositoryOnTheGivenBranch() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        #expect(repository.workdir == folder + "/r/")
        #expect(repository.gitdir == folder + "/r/.git/")
        #expect(try repository.headCommit() == nil)
        #expect(throws: GitError.self) { try Repository.create(at: folder + "/r", initialBranch: "main") }
    }

    @Test func commitsTreesBuiltFromUpdatesAndReadsThemBack() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        try "{}\n".write(toFile: folder + "/r/a.json", atomically: true, encoding: .utf8)
        let blob = try repository.writeBlob(Array("{}\n".utf8))
        #expect(try repository.hashFile(atPath: folder + "/r/a.json") == blob)
        let first = try repository.updateTree(
            repository.emptyTree(),
            with: [
                .upsert(path: "users/u1/books/a.json", id: blob, mode: 0o100644),
                .upsert(path: "users/u1.json", id: blob, mode: 0o100644),
            ]
        ).id
        let commit = try repository.createCommit(
            tree: first, parents: [], message: "first\n", author: someone, committer: someone, updating: "HEAD")
        let head = try #require(try repository.headCommit())
        #expect(head.id == commit)
        #expect(head.summary == "first")
        #expect(head.author == someone)
        #expect(try repository.blobID(at: "users/u1/books/a.json", inCommit: commit) == blob)
        #expect(try repository.blobID(at: "users/u1/books", inCommit: commit) == nil)
        #expect(try repository.blobContent(blob) == Array("{}\n".utf8))

        // Removing the last entry of a folder removes the folder.
        let second = try repository.updateTree(first, with: [.remove(path: "users/u1/books/a.json")]).id
        let child = try repository.createCommit(
            tree: second, parents: [commit], message: "second\n", author: someone, committer: someone, updating: "HEAD")
        #expect(try repository.blobID(at: "users/u1/books/a.json", inCommit: child) == nil)
        #expect(try repository.blobID(at: "users/u1.json", inCommit: child) == blob)
        #expect(try repository.resolveCommit("HEAD~1").id == commit)
        #expect(try repository.resolveCommit("main").id == child)
        var seen: [String] = []
        try repository.walkHistory(from: child) {
            seen.append($0.summary)
            return true
        }
        #expect(seen == ["second", "first"])
        let listing = try git("ls-tree", "-r", "-t", "--name-only", "HEAD", in: folder + "/r").stdout
        #expect(listing == "users\nusers/u1.json\n")
    }

    @Test func aCommitThatRacesTheBranchIsRefused() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        let tree = try repository.emptyTree()
        let first = try repository.createCommit(
            tree: tree, parents: [], message: "a\n", author: someone, committer: someone, updating: "HEAD")
        _ = try repository.createCommit(tree: tree, parents: [first], message: "b\n", author: someone, committer: someone, updating: "HEAD")
        // A commit whose parent is no longer the branch's tip must not move the branch.
        #expect(throws: GitError.self) {
            try repository.createCommit(tree: tree, parents: [first], message: "c\n", author: someone, committer: someone, updating: "HEAD")
        }
    }

    @Test func readsOnlyTheRepositorysOwnConfiguration() throws {
        let repository = try Repository.create(at: folder + "/r", initialBranch: "main")
        // Whatever ~/.gitconfig or /etc/gitconfig say, the repository sees only .git/config.
        #expect(try repository.config("user.name") == nil)
        try repository.setConfig("user.name", to: "Cairn")
        #expect(try repository.config("user.name") == "Cairn")
    }

}
