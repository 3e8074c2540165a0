import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore

/// A folder's listing with the kind of each entry read from the listing itself (`d_type`) gives
/// what the reference does — the names Foundation lists, each `lstat`ed — for files, folders,
/// symbolic links (to a file, to a folder, dangling) and a named pipe; nothing for a folder
/// that is not there, and nothing through a symbolic link unless asked.
@Suite(.historiesVerified) struct AFolderListingGivesWhatStatGivesTests {
    let folder = TemporaryFolder("cairn-listing")

    func reference(_ path: String) -> [String: FileSystem.Kind] {
        var kinds: [String: FileSystem.Kind] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            kinds[name] = FileSystem.kind(path + "/" + name)
        }
        return kinds
    }

    func listed(_ path: String) -> [String: FileSystem.Kind] {
        Dictionary(FileSystem.entries(in: path).map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func everyKindOfEntryIsListedAsStatSeesIt() throws {
        let path = folder.path
        var random = SplitMix(seed: 23)
        for index in 0..<40 {
            let name = "e\(index)" + (index % 3 == 0 ? ".json" : "")
            switch Int.random(in: 0..<5, using: &random) {
            case 0: try Data("{}".utf8).write(to: URL(fileURLWithPath: path + "/" + name))
            case 1: try FileManager.default.createDirectory(atPath: path + "/" + name, withIntermediateDirectories: false)
            case 2: try FileManager.default.createSymbolicLink(atPath: path + "/" + name, withDestinationPath: path + "/e0")
            case 3: try FileManager.default.createSymbolicLink(atPath: path + "/" + name, withDestinationPath: path + "/missing")
            default: #expect(mkfifo(path + "/" + name, 0o644) == 0)
            }
        }
        try FileManager.default.createSymbolicLink(atPath: path + "/to-folder", withDestinationPath: path)
        let expected = reference(path)
        #expect(expected.count == 41)
        #expect(listed(path) == expected)
        #expect(FileSystem.entries(in: path).count == expected.count, "each entry once, without . and ..")
    }

    /// A walk down a store's folders never leaves them: a symbolic link to a folder is listed
    /// through only when asked.
    @Test func aLinkToAFolderIsListedThroughOnlyWhenAsked() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/real", withIntermediateDirectories: false)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder.path + "/real/a.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: folder.path + "/real")
        #expect(FileSystem.entries(in: folder.path + "/link").isEmpty)
        #expect(FileSystem.entries(in: folder.path + "/link", followingLink: true).map(\.name) == ["a.json"])
        #expect(FileSystem.entries(in: folder.path + "/real").map(\.name) == ["a.json"])
    }

    /// A name that is not UTF-8 is left out (no path Cairn reads or writes has one); the
    /// others beside it are listed.
    @Test func aNameThatIsNotUTF8IsLeftOut() throws {
        let inner = folder.path + "/mixed"
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: false)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: inner + "/a.json"))
        let bytes = Array((inner + "/").utf8) + [0x62, 0xFF, 0x2E, 0x6A, 0x73, 0x6F, 0x6E, 0]
        let fd = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        #expect(fd >= 0)
        close(fd)
        #expect(FileSystem.entries(in: inner).map(\.name) == ["a.json"])
    }

    @Test func aMissingFolderListsNothing() {
        #expect(FileSystem.entries(in: folder.path + "/absent").isEmpty)
        #expect(FileSystem.entries(in: folder.path + "/absent/below").isEmpty)
    }

    @Test func aFileIsNotAFolderToList() throws {
        let file = folder.path + "/plain"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        #expect(FileSystem.entries(in: file).isEmpty)
    }
}
