import CairnTestSupport
import Foundation
import Testing

@testable import GitFormat

/// The packs and pack indexes Cairn writes are ones git accepts as its own: `git verify-pack`
/// and `git fsck` pass, every object reads back, and the index lists what the pack holds.
@Suite struct PackWriterTests {
    let temporary = TemporaryFolder("cairn-pack-format")

    /// A pack of blobs across the one-byte and multi-byte size headers (up to one that needs
    /// two stored zlib blocks), a tree naming them and a commit of that tree.
    @Test func gitAcceptsThePackAndItsIndex() throws {
        let folder = temporary.path
        #expect(try git("init", "-q", in: folder).status == 0)
        var pack = PackWriter()
        var contents: [ObjectID: [UInt8]] = [:]
        var tree: [UInt8] = []
        for (number, size) in [0, 1, 15, 16, 127, 128, 2_047, 70_000].enumerated() {
            let bytes = Array("\(number):".utf8) + [UInt8](repeating: UInt8(ascii: "a") + UInt8(number), count: size)
            let id = pack.add(bytes, type: .blob)
            #expect(id == ObjectID(hashing: bytes, type: .blob))
            contents[id] = bytes
            tree += RawTree.entry(name: Array("d\(number).json".utf8), mode: 0o100644, id: id)
        }
        let treeID = pack.add(tree, type: .tree)
        let commit = Array(
            "tree \(treeID.hex)\nauthor T <t@example.invalid> 1730000000 +0000\ncommitter T <t@example.invalid> 1730000000 +0000\n\nm\n"
                .utf8)
        let commitID = pack.add(commit, type: .commit)
        // The same content again is one object.
        #expect(pack.add(contents.first!.value, type: .blob) == contents.first!.key)
        #expect(pack.count == contents.count + 2)

        try pack.write(into: folder + "/.git/")
        let packs = try FileManager.default.contentsOfDirectory(atPath: folder + "/.git/objects/pack")
        let index = try #require(packs.first { $0.hasSuffix(".idx") })
        #expect(packs.sorted() == [index, index.replacingOccurrences(of: ".idx", with: ".pack")].sorted())
        let verify = try runProcess("/usr/bin/git", ["verify-pack", "-v", folder + "/.git/objects/pack/" + index])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(try git("update-ref", "HEAD", commitID.hex, in: folder).status == 0)
        let fsck = try git("fsck", "--full", "--strict", "--no-dangling", in: folder)
        #expect(fsck.status == 0, "\(fsck.stderr)")
        for (id, bytes) in contents where bytes.allSatisfy({ $0 < 0x80 }) {
            #expect(try git("cat-file", "blob", id.hex, in: folder).stdout == String(decoding: bytes, as: UTF8.self))
        }
        let listed = try PackIndex.objectIDs(atPath: folder + "/.git/objects/pack/" + index)
        #expect(Set(listed) == Set(contents.keys).union([treeID, commitID]))
        #expect(listed == listed.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) })
        #expect(PackIndex.objectCount(atPath: folder + "/.git/objects/pack/" + index) == listed.count)
        try PackIndex.check(
            folder + "/.git/objects/pack/" + index,
            pack: folder + "/.git/objects/pack/" + index.replacingOccurrences(of: ".idx", with: ".pack"))
    }

    /// The pack is named after its checksum, as git names packs, and objects dropped before
    /// writing are not in it.
    @Test func thePackIsNamedAfterItsChecksumAndHoldsWhatIsLeft() throws {
        var pack = PackWriter()
        let kept = pack.add(Array("kept\n".utf8), type: .blob)
        let dropped = pack.add(Array("dropped\n".utf8), type: .blob)
        pack.removeAll { $0 == dropped }
        #expect(pack.count == 1)
        #expect(pack.add(Array("dropped\n".utf8), type: .blob) == dropped)
        pack.removeAll { $0 == dropped }
        let encoded = try pack.encoded()
        #expect(encoded.name == ObjectID(rawBytes: Array(encoded.pack.suffix(20))).hex)
        #expect(Array(encoded.pack.suffix(20)) == SHA1.hash(Array(encoded.pack.dropLast(20))))
        #expect(encoded.pack.readBigEndianUInt32(at: 8) == 1)
        #expect(encoded.index.suffix(40).prefix(20).elementsEqual(encoded.pack.suffix(20)))
        #expect(Array(encoded.index[(8 + 1_024)..<(8 + 1_024 + 20)]) == kept.bytes)
    }

    /// A damaged pack index is refused before anything reads through it.
    @Test(arguments: ["fan-out", "offset", "truncated", "pack header"])
    func aDamagedPackIndexIsRefused(damage: String) throws {
        let folder = temporary.path + "/"
        var pack = PackWriter()
        for number in 0..<20 { _ = pack.add(Array("{\"n\":\(number)}\n".utf8), type: .blob) }
        try FileManager.default.createDirectory(atPath: folder + "objects", withIntermediateDirectories: true)
        try pack.write(into: folder)
        let packFolder = folder + "objects/pack/"
        let index = try #require(try FileManager.default.contentsOfDirectory(atPath: packFolder).first { $0.hasSuffix(".idx") })
        let packName = index.replacingOccurrences(of: ".idx", with: ".pack")
        try PackIndex.check(packFolder + index, pack: packFolder + packName)
        let target = damage == "pack header" ? packFolder + packName : packFolder + index
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: target)))
        switch damage {
        case "fan-out": bytes[8 + 4 * 200] = 0xFF
        case "offset": bytes[8 + 1_024 + 24 * 20] = 0x7F
        case "truncated": bytes.removeLast(30)
        default: bytes[11] = 99
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        do {
            try PackIndex.check(packFolder + index, pack: packFolder + packName)
            Issue.record("a pack index with a damaged \(damage) passed")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix("pack index \(packFolder + index) is damaged: "))
        }
    }
}
