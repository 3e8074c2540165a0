import CairnMerge
import CairnTestSupport
import Foundation
import Testing

@testable import GitFormat

/// Splicing changes into a tree's bytes makes the tree git makes of the same entries
/// (`git mktree`, which sorts them itself), keeps untouched entries byte for byte, and
/// reports what the changed files were.
@Suite struct RawTreeTests {
    let temporary = TemporaryFolder("cairn-raw-trees")

    /// Names chosen to exercise git's order: a folder "a" sorts as "a/", after "a.json" and "a-b".
    static let names = ["a", "a.json", "a-b", "a0", "b", "books", "b.json", "z", "Z", "é", "a b"]

    /// The id `git mktree` gives a tree of `entries` (name: mode and id).
    func gitTree(_ entries: [String: (mode: UInt32, id: ObjectID)], in folder: String) throws -> ObjectID? {
        let lines = entries.map { name, entry in
            let mode = entry.mode == 0o040000 ? "040000 tree" : String(entry.mode, radix: 8) + " blob"
            return "\(mode) \(entry.id.hex)\t\(name)\n"
        }.joined()
        let made = try runProcess("/usr/bin/git", ["-C", folder, "mktree", "--missing"], input: lines)
        return ObjectID(hex: made.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func splicingMakesGitsTrees() throws {
        let folder = temporary.path
        #expect(try git("init", "-q", in: folder).status == 0)
        var generator = SplitMix(seed: 2026)
        let blobs = (0..<4).map { ObjectID(hashing: Array("{\"v\":\($0)}\n".utf8), type: .blob) }
        var bytes: [UInt8] = []
        var entries: [String: (mode: UInt32, id: ObjectID)] = [:]
        for round in 0..<60 {
            let tree = try RawTree(bytes, id: nil)
            var splices: [RawTree.Splice] = []
            var expected = entries
            var replaced: [String: ObjectID] = [:]
            for name in Self.names.shuffled(using: &generator).prefix(Int.random(in: 1...4, using: &generator)) {
                let isFolder = entries[name].map { $0.mode == 0o040000 } ?? Bool.random(using: &generator)
                if let existing = entries[name], !isFolder { replaced[name] = existing.id }
                if entries[name] != nil, Bool.random(using: &generator) {
                    splices.append(RawTree.Splice(name: Array(name.utf8), isFolder: isFolder, replacement: nil))
                    expected[name] = nil
                } else {
                    let mode: UInt32 = isFolder ? 0o040000 : [0o100644, 0o100755][Int.random(in: 0...1, using: &generator)]
                    let id = isFolder ? ObjectID.emptyTree : blobs.randomElement(using: &generator)!
                    splices.append(
                        RawTree.Splice(
                            name: Array(name.utf8), isFolder: isFolder,
                            replacement: RawTree.entry(name: Array(name.utf8), mode: mode, id: id)))
                    expected[name] = (mode, id)
                }
            }
            let spliced = try tree.splicing(splices)
            #expect(
                Dictionary(uniqueKeysWithValues: spliced.previous.map { (String(decoding: $0.name, as: UTF8.self), $0.id) }) == replaced,
                "round \(round)")
            #expect(
                ObjectID(hashing: spliced.bytes, type: .tree) == (try gitTree(expected, in: folder)),
                "round \(round): \(expected.keys.sorted())")
            bytes = spliced.bytes
            entries = expected
        }
    }

    @Test func untouchedEntriesAreCopiedByteForByte() throws {
        let blob = ObjectID(hashing: Array("{}\n".utf8), type: .blob)
        let names = (0..<500).map { "a\($0).json" }.sorted()
        let bytes = names.flatMap { RawTree.entry(name: Array($0.utf8), mode: 0o100644, id: blob) }
        let tree = try RawTree(bytes, id: nil)
        let spliced = try tree.splicing([
            RawTree.Splice(name: Array("a17.json".utf8), isFolder: false, replacement: nil),
            RawTree.Splice(
                name: Array("new.json".utf8), isFolder: false,
                replacement: RawTree.entry(name: Array("new.json".utf8), mode: 0o100644, id: blob)),
        ])
        let removed = RawTree.entry(name: Array("a17.json".utf8), mode: 0o100644, id: blob)
        let start = names.prefix { $0 < "a17.json" }.reduce(0) { $0 + RawTree.entry(name: Array($1.utf8), mode: 0o100644, id: blob).count }
        var expected = bytes
        expected.removeSubrange(start..<(start + removed.count))
        expected += RawTree.entry(name: Array("new.json".utf8), mode: 0o100644, id: blob)
        #expect(spliced.bytes == expected)
        #expect(spliced.previous.map(\.id) == [blob])
        #expect(try tree.splicing([]).bytes == bytes)
        #expect(tree.folderID(named: Array("a1.json".utf8)) == nil)
    }

    @Test func aFileDoesNotBecomeAFolderOrBack() throws {
        let blob = ObjectID(hashing: [], type: .blob)
        let tree = try RawTree(
            RawTree.entry(name: Array("a".utf8), mode: 0o100644, id: blob)
                + RawTree.entry(name: Array("d".utf8), mode: 0o040000, id: .emptyTree), id: nil)
        #expect(tree.folderID(named: Array("d".utf8)) == .emptyTree)
        #expect(tree.folderID(named: Array("a".utf8)) == nil)
        for splice in [
            RawTree.Splice(name: Array("a".utf8), isFolder: true, replacement: nil),
            RawTree.Splice(name: Array("d".utf8), isFolder: false, replacement: nil),
        ] {
            #expect(throws: GitFormatError.self) { try tree.splicing([splice]) }
            do {
                _ = try tree.splicing([splice])
            } catch {
                #expect(error.code == .invalidUpdate)
                #expect(error.message == "a tree update may not turn a file into a folder or back")
            }
        }
    }

    @Test(arguments: [1, 5, 8, 27])
    func aTreeCutShortIsCorrupt(kept: Int) {
        let bytes = RawTree.entry(name: Array("a.json".utf8), mode: 0o100644, id: .emptyTree)
        let id = ObjectID(hashing: Array(bytes.prefix(kept)), type: .tree)
        do {
            _ = try RawTree(Array(bytes.prefix(kept)), id: id)
            Issue.record("read a tree cut short at \(kept) bytes")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message == "tree \(id.hex) is corrupt")
        }
    }
}
