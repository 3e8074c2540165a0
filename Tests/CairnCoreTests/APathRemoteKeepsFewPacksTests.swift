import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import Git

/// A push by path is written by libgit2 into the bare repository itself, one pack each time.
/// Over HTTP or SSH, `git receive-pack` keeps a repository's packs few (`git gc --auto`);
/// by path nothing did, and each fetch and push looked through every pack the remote ever
/// got. A sync that pushes by path now merges the remote's small packs as it merges its own
/// store's, under the remote's push lock.
@Suite(.historiesVerified) struct APathRemoteKeepsFewPacksTests {
    let folder = TemporaryFolder("cairn-path-remote-packs")

    func packs(in repository: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository + "/objects/pack").filter { $0.hasSuffix(".pack") }
    }

    @Test func manySyncsLeaveTheRemoteFewPacksAndEveryCheckpoint() throws {
        let remote = folder.path + "/shared/u1.git"
        try #require(try runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", remote]).status == 0)
        let phone = try Home(root: folder.path + "/phone").createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"))
        try phone.setRemote(RemoteURL(remote))
        let syncs = Repository.packLimit + 8
        for number in 0..<syncs {
            try phone.put(
                .object(["schemaVersion": .integer(1), "bookId": .string("b\(number)"), "sections": .object([:])]),
                at: DocumentPath("users/u1/books/b\(number)"))
            _ = try phone.checkpoint(message: "book \(number)")
            _ = try phone.sync(SyncOptions(retry: .none))
        }
        let left = try packs(in: remote)
        #expect(left.count <= Repository.packLimit, "\(syncs) pushes left \(left.count) packs")
        let fsck = try runProcess("/usr/bin/git", ["--git-dir", remote, "fsck", "--full", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stdout)\(fsck.stderr)")
        let commits = try runProcess("/usr/bin/git", ["--git-dir", remote, "rev-list", "--count", "main"])
        #expect(Int(commits.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 >= syncs, "\(commits.stdout)")

        // Another device gets every book from the remote as it is now.
        let laptop = try Home(root: folder.path + "/laptop").cloneStore(from: RemoteURL(remote), options: SyncOptions(retry: .none))
        for number in 0..<syncs {
            #expect(try laptop.document(at: DocumentPath("users/u1/books/b\(number)"))?.field("bookId") == .string("b\(number)"))
        }
    }
}
