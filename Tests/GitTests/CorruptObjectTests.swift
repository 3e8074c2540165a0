@testable import Git
import GitFormat
import CairnTestSupport
import Foundation
import Testing

/// Objects are read without hashing them again; a damaged object must still be an error,
/// never content. zlib's Adler-32 checksum is what catches it.
@Suite struct CorruptObjectTests {
    let temporary = TemporaryFolder("cairn-corrupt")
    var folder: String { temporary.path }

    func flipByte(at fraction: Double, of id: ObjectID, in repository: Repository) throws {
        let path = repository.gitdir + "objects/" + id.hex.prefix(2) + "/" + id.hex.dropFirst(2)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let position = max(2, min(bytes.count - 5, Int(Double(bytes.count) * fraction)))
        bytes[position] ^= 0x20
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: [0.3, 0.5, 0.9])
    func aFlippedByteInATreeIsAnError(at fraction: Double) throws {
        let repository = try Repository.create(at: folder + "/r\(fraction)", initialBranch: "main")
        let blob = try repository.writeBlob(Array("{}\n".utf8))
        let updates = (0..<200).map { TreeUpdate.upsert(path: "d/f\($0).json", id: blob, mode: 0o100644) }
        let tree = try repository.updateTree(repository.emptyTree(), with: updates).id
        let reopened = try Repository(openingAt: folder + "/r\(fraction)")
        let inner = ObjectID(rawBytes: Array(try reopened.rawObject(tree, type: .tree).suffix(20)))
        try flipByte(at: fraction, of: inner, in: reopened)
        let fresh = try Repository(openingAt: folder + "/r\(fraction)")
        #expect(throws: GitError.self) { try fresh.rawObject(inner, type: .tree) }
    }

    @Test(arguments: [0.3, 0.5, 0.9])
    func aFlippedByteInACompressedBlobIsAnError(at fraction: Double) throws {
        let repository = try Repository.create(at: folder + "/b\(fraction)", initialBranch: "main")
        let text = (0..<400).map { "\"field\($0)\": \($0 * 7919 % 1000)" }.joined(separator: ",\n")
        let blob = try repository.writeBlob(Array(text.utf8))
        try flipByte(at: fraction, of: blob, in: repository)
        let fresh = try Repository(openingAt: folder + "/b\(fraction)")
        #expect(throws: GitError.self) { try fresh.blobContent(blob) }
    }
}
