import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore

/// A file a command creates for its user (`export-firestore --output`) is written whole or not
/// at all, and never over a file, even one that appeared after the command checked the name:
/// the file found there is left as it was.
@Suite(.historiesVerified) struct AFileWrittenNewNeverReplacesOneTests {
    let folder = TemporaryFolder("cairn-write-new")

    var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(StoreLayout.temporaryFilePrefix) }
    }

    @Test func aNewFileIsWrittenWhole() throws {
        let path = folder.path + "/export.json"
        let bytes = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        try FileSystem.writeNew(bytes, to: path)
        #expect(FileManager.default.contents(atPath: path) == Data(bytes))
        #expect(leftovers.isEmpty)
    }

    @Test func aFileThatAppearedIsLeftAsItWas() throws {
        let path = folder.path + "/export.json"
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: CairnError.self) { try FileSystem.writeNew(Array("ours".utf8), to: path) }
        #expect(error.code == .alreadyExists)
        #expect(error.message == "\(path) exists; give a new file (nothing was written)")
        #expect(FileManager.default.contents(atPath: path) == Data("someone else's".utf8))
        #expect(leftovers.isEmpty)
    }

    @Test func aTemporaryNameLeftBehindIsNotFollowed() throws {
        // A run killed before it removed its temporary file, whose name is now a symbolic link.
        let path = folder.path + "/export.json"
        let target = folder.path + "/elsewhere.json"
        let temporary = folder.path + "/\(StoreLayout.temporaryFilePrefix)\(getpid())-export.json"
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: target)
        try FileSystem.writeNew(Array("ours".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data("ours".utf8))
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(leftovers.isEmpty)
    }

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let path = folder.path + "/export.json"
        let target = folder.path + "/elsewhere.json"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let error = try #require(throws: CairnError.self) { try FileSystem.writeNew(Array("ours".utf8), to: path) }
        #expect(error.code == .alreadyExists)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(leftovers.isEmpty)
    }
}
