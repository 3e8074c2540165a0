import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// A damaged object must be an error, never content: zlib's Adler-32 checksum catches a
/// flipped byte inside an object's stream, and hashing what was read catches damage to what
/// frames it in a pack (a delta's base).
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

    /// A pack of two blobs of one size and a delta against the first; the delta's base offset
    /// is then changed to name the second blob. Every zlib stream is intact and the delta
    /// applies (its base has the size it declares), so only the object's id tells the
    /// content is not the one asked for.
    @Test func aDeltaRedirectedToAnotherBaseIsAnError() throws {
        let path = folder + "/delta"
        _ = try Repository.create(at: path, initialBranch: "main")
        let first = Array(String(repeating: "a", count: 40).utf8)
        let second = Array(String(repeating: "b", count: 40).utf8)
        let derived = Array(first.prefix(20)) + Array("changed".utf8)
        func header(_ type: UInt8, _ size: Int) -> [UInt8] {
            var bytes: [UInt8] = [(type << 4) | UInt8(size & 15)]
            var rest = size >> 4
            while rest > 0 {
                bytes[bytes.count - 1] |= 0x80
                bytes.append(UInt8(rest & 0x7f))
                rest >>= 7
            }
            return bytes
        }
        // Base size, result size, copy 20 bytes from offset 0, insert "changed".
        let delta: [UInt8] = [UInt8(first.count), UInt8(derived.count), 0x90, 20, 7] + Array("changed".utf8)
        var pack = Array("PACK".utf8) + [0, 0, 0, 2, 0, 0, 0, 3]
        let firstOffset = pack.count
        pack += header(3, first.count) + Zlib.stored(first)
        let secondOffset = pack.count
        pack += header(3, second.count) + Zlib.stored(second)
        let deltaOffset = pack.count
        pack += header(6, delta.count) + [UInt8(deltaOffset - firstOffset)] + Zlib.stored(delta)
        let packPath = path + "/.git/objects/pack/pack-delta.pack"
        try Data(pack + SHA1.hash(pack)).write(to: URL(fileURLWithPath: packPath))
        let indexed = try git("index-pack", packPath, in: path)
        #expect(indexed.status == 0, "\(indexed.stderr)")
        let id = ObjectID(hashing: derived, type: .blob)
        #expect(try Repository(openingAt: path).blobContent(id) == derived)

        // The trailer stays the one the index was made from, as after a flipped byte.
        let trailer = SHA1.hash(pack)
        pack[deltaOffset + header(6, delta.count).count] = UInt8(deltaOffset - secondOffset)
        try Data(pack + trailer).write(to: URL(fileURLWithPath: packPath))
        let fresh = try Repository(openingAt: path)
        let error = #expect(throws: GitError.self) { try fresh.blobContent(id) }
        #expect(error?.isDamage == true)
    }
}
