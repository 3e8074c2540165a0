import CairnMerge
import CairnTestSupport
import Foundation
import Testing

@testable import GitFormat

/// The loose objects Cairn writes are objects git reads: the content back byte for byte,
/// and `git fsck` finds them sound.
@Suite struct LooseObjectTests {
    let temporary = TemporaryFolder("cairn-loose-objects")

    @Test func gitReadsWhatIsWritten() throws {
        let folder = temporary.path
        #expect(try git("init", "-q", in: folder).status == 0)
        let gitdir = folder + "/.git/"
        var generator = SplitMix(seed: 7)
        var tree: [UInt8] = []
        for (number, size) in [0, 1, 127, 65_535, 65_536, 150_000].enumerated() {
            let content = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = try LooseObject.write(content, type: .blob, into: gitdir)
            #expect(id == ObjectID(hashing: content, type: .blob))
            #expect(try git("cat-file", "-s", id.hex, in: folder).stdout == "\(size)\n")
            // The content is binary: git writes it to a file, not to a string.
            let copy = folder + "/copy"
            let shown = try runProcess("/bin/sh", ["-c", "git -C \"$0\" cat-file blob \"$1\" > \"$2\"", folder, id.hex, copy])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy))) == content, "size \(size)")
            tree += RawTree.entry(name: Array("f\(number)".utf8), mode: 0o100644, id: id)
        }
        let treeID = try LooseObject.write(tree, type: .tree, into: gitdir)
        #expect(try git("ls-tree", treeID.hex, in: folder).stdout.split(separator: "\n").count == 6)
        let fsck = try git("fsck", "--full", "--strict", in: folder)
        #expect(fsck.status == 0, "\(fsck.stderr)")
    }

    /// Writing an object that is there already leaves its file as it is, and no temporary
    /// file behind.
    @Test func anObjectThatExistsIsNotWrittenAgain() throws {
        let gitdir = temporary.path + "/"
        try FileManager.default.createDirectory(atPath: gitdir + "objects", withIntermediateDirectories: true)
        let content = Array("{}\n".utf8)
        let id = try LooseObject.write(content, type: .blob, into: gitdir)
        let folder = gitdir + "objects/" + id.hex.prefix(2)
        let path = folder + "/" + id.hex.dropFirst(2)
        let before = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        #expect(try LooseObject.write(content, type: .blob, into: gitdir) == id)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [String(id.hex.dropFirst(2))])
    }

    /// A folder that cannot be written is an error naming the call and the file, with errno.
    @Test func anUnwritableFolderIsASystemCallFailure() throws {
        let gitdir = temporary.path + "/missing/"
        do {
            _ = try LooseObject.write(Array("x".utf8), type: .blob, into: gitdir)
            Issue.record("wrote into a folder that does not exist")
        } catch {
            #expect(error.code == .systemCall)
            #expect(error.operation == "mkdir")
            #expect(error.systemErrorCode == ENOENT)
            #expect(error.message.hasPrefix("mkdir " + gitdir + "objects/"))
        }
    }
}
