import CairnMerge
import CairnTestSupport
import Foundation
import Testing

@testable import GitFormat

/// Object ids as git writes and reads them: 40 hexadecimal digits, and the SHA-1 of an
/// object's header and content, the id `git hash-object` gives.
@Suite struct ObjectIDTests {
    let temporary = TemporaryFolder("cairn-object-ids")

    @Test func hexRoundTripsAndAcceptsUpperCase() {
        var generator = SplitMix(seed: 40)
        for _ in 0..<200 {
            let bytes = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let id = ObjectID(rawBytes: bytes)
            #expect(id.hex.count == 40)
            #expect(id.hex == id.hex.lowercased())
            #expect(ObjectID(hex: id.hex) == id)
            #expect(ObjectID(hex: id.hex.uppercased()) == id)
            #expect(id.short == String(id.hex.prefix(7)))
        }
    }

    /// Every byte, as Foundation's `%02x` writes it.
    @Test func hexDigitsAreFoundationsFormat() {
        let all = (0...255).map { UInt8($0) }
        #expect(all.hexDigits == all.map { String(format: "%02x", $0) }.joined())
        #expect([UInt8]().hexDigits == "")
    }

    @Test(arguments: [
        "", "4b825dc", String(repeating: "0", count: 39), String(repeating: "0", count: 41),
        "4b825dc642cb6eb9a060e54bf8d69288fbee490g", "4b825dc642cb6eb9a060e54bf8d69288fbee490 ",
        "-b825dc642cb6eb9a060e54bf8d69288fbee4904", "4b825dc642cb6eb9a060e54bf8d69288fbee49é",
    ])
    func anythingButFortyDigitsIsNoID(text: String) {
        #expect(ObjectID(hex: text) == nil)
    }

    /// Blobs and trees of many sizes get the ids git gives them.
    @Test func hashingGivesGitsIDs() throws {
        let folder = temporary.path
        #expect(try git("init", "-q", in: folder).status == 0)
        #expect(ObjectID(hashing: [], type: .tree) == ObjectID.emptyTree)
        var generator = SplitMix(seed: 41)
        for size in [0, 1, 9, 10, 100, 4_095, 65_536, 100_000] {
            let content = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let path = folder + "/blob\(size)"
            try Data(content).write(to: URL(fileURLWithPath: path))
            let printed = try git("hash-object", "--no-filters", path, in: folder).stdout
            #expect(ObjectID(hashing: content, type: .blob).hex + "\n" == printed, "size \(size)")
        }
        let tree =
            RawTree.entry(name: Array("a.json".utf8), mode: 0o100644, id: ObjectID(hashing: [], type: .blob))
            + RawTree.entry(name: Array("b".utf8), mode: 0o040000, id: .emptyTree)
        try Data(tree).write(to: URL(fileURLWithPath: folder + "/tree"))
        let printed = try git("hash-object", "-t", "tree", folder + "/tree", in: folder).stdout
        #expect(ObjectID(hashing: tree, type: .tree).hex + "\n" == printed)
    }
}
