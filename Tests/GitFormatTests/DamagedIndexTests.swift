import CairnTestSupport
import Foundation
import Testing

@testable import GitFormat

/// A damaged index is an error that says so, never a crash and never a wrong answer.
@Suite struct DamagedIndexTests {
    let temporary = TemporaryFolder("cairn-damaged")
    var gitdir: String { temporary.path + "/" }

    /// An index of 100 entries, written split (a `.git/index` linking to a shared part) or whole.
    func writeIndex(splitIndex: Bool) throws {
        let index = try Index.open(gitdir: gitdir, splitIndex: splitIndex)
        for number in 0..<100 {
            let content = Array("{\"n\":\(number)}\n".utf8)
            var entry = IndexEntry(path: "d/f\(number).json", id: ObjectID(hashing: content, type: .blob))
            entry.size = UInt32(content.count)
            try index.stage(entry)
        }
        try index.write()
        // One change more, so that the split `.git/index` records something against its shared part.
        try index.remove(path: "d/f7.json")
        try index.write()
    }

    func sharedPart() throws -> String {
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: gitdir).first { $0.hasPrefix("sharedindex.") })
        return gitdir + name
    }

    @Test func theUndamagedIndexReadsBack() throws {
        for split in [true, false] {
            try writeIndex(splitIndex: split)
            let entries = try Index.open(gitdir: gitdir).allEntries()
            #expect(entries.count == 99)
            #expect(entries.map(\.path) == (0..<100).filter { $0 != 7 }.map { "d/f\($0).json" }.sorted())
        }
    }

    @Test func aTruncatedSharedPartIsAnError() throws {
        try writeIndex(splitIndex: true)
        let path = try sharedPart()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(throws: GitFormatError.self) { try Index.open(gitdir: gitdir) }
    }

    @Test(arguments: [0.3, 0.5, 0.9])
    func aTruncatedWholeIndexIsAnError(kept: Double) throws {
        try writeIndex(splitIndex: false)
        let path = gitdir + "index"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(Int(Double(bytes.count) * kept)).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Index.open(gitdir: gitdir).allEntries()
            Issue.record("read an index cut at \(kept)")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix("\(path) is not a valid index file: "))
            #expect(error.operation == "cairn_index_read")
        }
    }

    @Test func aMissingSharedPartIsAnError() throws {
        try writeIndex(splitIndex: true)
        try FileManager.default.removeItem(atPath: try sharedPart())
        do {
            _ = try Index.open(gitdir: gitdir)
            Issue.record("opened an index whose shared part is gone")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message.contains("which is missing"))
        }
    }

    @Test(arguments: [false, true])
    func aHeaderClaimingBillionsOfEntriesIsAnError(splitIndex: Bool) throws {
        try writeIndex(splitIndex: splitIndex)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: gitdir + "index")))
        bytes[8...11] = [0xFF, 0xFF, 0xFF, 0xF0]
        try Data(bytes).write(to: URL(fileURLWithPath: gitdir + "index"))
        #expect(throws: GitFormatError.self) { try Index.open(gitdir: gitdir) }
    }

    /// A lock file another process left makes writing fail as locked, with the index as it was.
    @Test func aLockFileLeftBehindIsLocked() throws {
        try writeIndex(splitIndex: false)
        let before = try Data(contentsOf: URL(fileURLWithPath: gitdir + "index"))
        _ = FileManager.default.createFile(atPath: gitdir + "index.lock", contents: nil)
        let index = try Index.open(gitdir: gitdir)
        try index.remove(path: "d/f8.json")
        do {
            try index.write()
            Issue.record("wrote the index past a lock file")
        } catch {
            #expect(error.code == .locked)
            #expect(error.message == "\(gitdir)index.lock exists: another git process is writing the index")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: gitdir + "index")) == before)
    }
}
