import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore
@testable import Git

/// A restore writes the new working tree's folders on two threads. Whatever thread wrote a
/// file, the working tree and the index are the commit's, as git reads them.
@Suite(.historiesVerified) struct ARestoreWritesItsFoldersOnTwoThreadsTests {
    let folder = TemporaryFolder("cairn-two-threads")

    @Test func everyFileAndIndexEntryIsTheCommitsWhicheverThreadWroteIt() throws {
        let server = folder.path + "/server"
        _ = try Server.createRepositories(in: server, uids: ["u1"], cairn: "/bin/false")
        let phone = try Home(root: folder.path + "/phone").createStore("u1")
        try phone.setRemote(RemoteURL(server + "/u1.git"))
        // Folders of different sizes, nested, more files than a second thread needs.
        var written: [DocumentPath: JSONValue] = [:]
        for number in 0..<70 {
            written[try DocumentPath("users/u1/books/b\(number)")] = .object(["n": .integer(Int64(number))])
        }
        for number in 0..<45 {
            written[try DocumentPath("users/u1/notes/n\(number)")] = .object(["text": .string(String(repeating: "x", count: number))])
        }
        for number in 0..<12 {
            written[try DocumentPath("users/u1/books/b3/highlights/h\(number)")] = .object(["at": .integer(Int64(number))])
        }
        // The restore takes two threads: enough files, two shares, libgit2 built for threads.
        #expect(written.count >= Store.filesWorthASecondThread)
        let shares = Store.sharedByFolder(written.keys.map(\.fileName))
        #expect(shares.map(\.count) == [70, 57])
        #expect(GitLibrary.isBuiltForThreads)
        for (path, value) in written { try phone.put(value, at: path) }
        _ = try phone.checkpoint()
        _ = try phone.sync(SyncOptions(retry: .none))

        let laptop = try Home(root: folder.path + "/laptop").cloneStore(
            from: RemoteURL("file://" + server + "/u1.git"),
            options: SyncOptions(retry: .none))
        for (path, value) in written {
            #expect(try laptop.document(at: path) == value, "\(path)")
        }
        // The index lists the commit's files with their modes and ids ...
        let listed = try git("ls-files", "-s", in: laptop.folder).stdout
        let committed = try git("ls-tree", "-r", "HEAD", in: laptop.folder).stdout
        func entries(_ text: String) -> [String] {
            text.split(separator: "\n").map { line in
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                return fields.count == 4 && fields[1] == "blob"
                    ? "\(fields[0]) \(fields[2]) \(fields[3])"
                    : "\(fields[0]) \(fields[1]) \(fields.last!)"
            }
        }
        #expect(entries(listed) == entries(committed))
        #expect(entries(listed).filter { $0.hasSuffix(".json") && $0.contains(" users/u1/") }.count == written.count)
        // ... and each entry's file status as the file has it: git, which does not refresh
        // the index here, finds no file whose status differs from its entry.
        #expect(try git("diff-files", "--quiet", in: laptop.folder).status == 0)
        #expect(try git("status", "--porcelain", in: laptop.folder).stdout == "")
        #expect(try git("fsck", "--strict", in: laptop.folder).status == 0)
    }

    @Test func foldersAreSharedLargestFirstAndOneFolderStaysOnOneThread() {
        let paths = (0..<5).map { "a/x\($0).json" } + (0..<3).map { "b/y\($0).json" } + (0..<3).map { "c/z\($0).json" } + ["top.json"]
        let shares = Store.sharedByFolder(paths)
        #expect(
            shares.map { $0.map { paths[$0] } } == [
                (0..<5).map { "a/x\($0).json" } + ["top.json"],
                (0..<3).map { "b/y\($0).json" } + (0..<3).map { "c/z\($0).json" },
            ])
        #expect(Store.sharedByFolder((0..<100).map { "a/x\($0).json" })[1].isEmpty)
    }
}
