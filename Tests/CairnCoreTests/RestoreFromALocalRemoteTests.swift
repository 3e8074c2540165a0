import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A restore from a repository on this machine (a path or file:// remote) copies the remote's
/// object files, as `git clone` of a local path does, instead of having libgit2 build and
/// delta-compress a new pack; a remote that borrows objects through `alternates` is fetched
/// as before. Either way the store is the remote's, and git finds nothing wrong with it.
@Suite(.historiesVerified) struct RestoreFromALocalRemoteTests {
    let folder = TemporaryFolder("cairn-local-restore")

    func home(_ device: String) -> Home { Home(root: folder.path + "/" + device) }

    /// A server repository of u1 holding two checkpoints of the phone, and its folder.
    func remoteWithProgress() throws -> String {
        let server = folder.path + "/server"
        _ = try Server.createRepositories(in: server, uids: ["u1"], cairn: "/bin/false")
        let phone = try home("phone").createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"))
        try phone.setRemote(RemoteURL(server + "/u1.git"))
        for number in 0..<2 {
            try phone.put(
                .object(["schemaVersion": .integer(1), "bookId": .string("b\(number)"), "sections": .object([:])]),
                at: DocumentPath("users/u1/books/b\(number)"))
            _ = try phone.checkpoint(message: "book \(number)")
            _ = try phone.sync(SyncOptions(retry: .none))
        }
        return server + "/u1.git"
    }

    func packs(in repository: String) -> Set<String> {
        let pack = repository + (FileManager.default.fileExists(atPath: repository + "/HEAD") ? "/objects/pack" : "/.git/objects/pack")
        return Set(((try? FileManager.default.contentsOfDirectory(atPath: pack)) ?? []).filter { $0.hasSuffix(".pack") })
    }

    func expectSameStore(_ laptop: Store, as remote: String) throws {
        let tip = try runProcess("/usr/bin/git", ["--git-dir", remote, "rev-parse", "main"]).stdout
        #expect(try git("rev-parse", "HEAD", in: laptop.folder).stdout == tip)
        #expect(try git("fsck", "--strict", in: laptop.folder).status == 0)
        #expect(try git("status", "--porcelain", in: laptop.folder).stdout == "")
        #expect(try laptop.document(at: DocumentPath("users/u1/books/b1"))?.field("bookId") == .string("b1"))
    }

    @Test func aLocalRemotesObjectFilesAreCopied() throws {
        let remote = try remoteWithProgress()
        try git("--git-dir", remote, "gc", "-q", in: folder.path)
        let laptop = try home("laptop").cloneStore(from: RemoteURL("file://" + remote), options: SyncOptions(retry: .none))
        try expectSameStore(laptop, as: remote)
        #expect(!packs(in: remote).isEmpty && packs(in: laptop.folder) == packs(in: remote), "the remote's packs, copied")
    }

    /// A working copy whose `.git` is a file naming its repository elsewhere: nothing to copy
    /// where the objects would be, so the branch's commit is missing and the fetch runs.
    @Test func aRemoteWhoseObjectsAreElsewhereIsFetched() throws {
        let remote = try remoteWithProgress()
        let working = folder.path + "/working/u1"
        try git("clone", "-q", "--separate-git-dir", folder.path + "/separate.git", remote, working, in: folder.path)
        let laptop = try home("laptop").cloneStore(from: RemoteURL(working), uid: "u1", options: SyncOptions(retry: .none))
        try expectSameStore(laptop, as: folder.path + "/separate.git")
    }

    @Test func aRemoteThatBorrowsObjectsIsFetched() throws {
        let remote = try remoteWithProgress()
        let borrowing = folder.path + "/borrowing/u1.git"
        try git("clone", "-q", "--bare", "--shared", remote, borrowing, in: folder.path)
        let laptop = try home("laptop").cloneStore(from: RemoteURL(borrowing), options: SyncOptions(retry: .none))
        try expectSameStore(laptop, as: borrowing)
        #expect(packs(in: laptop.folder).isDisjoint(with: packs(in: remote)), "a pack of the fetch's own")
    }
}
