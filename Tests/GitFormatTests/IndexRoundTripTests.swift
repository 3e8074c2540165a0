import CairnMerge
import CairnTestSupport
import Foundation
import Testing

@testable import GitFormat

/// Random runs of staging and unstaging, written whole or split, read back as what was
/// staged, by Cairn and by `git ls-files`.
@Suite struct IndexRoundTripTests {
    let temporary = TemporaryFolder("cairn-index-round-trip")

    @Test(arguments: 1...8)
    func whatIsStagedIsWhatIsReadBack(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let folder = temporary.path
        #expect(try git("init", "-q", in: folder).status == 0)
        let gitdir = folder + "/.git/"
        var staged: [String: IndexEntry] = [:]
        let paths = (0..<80).map { "users/u\($0 % 3)/c\($0 % 5)/d\($0).json" } + ["a", "a.json", "a-b", "é.json"]
        for round in 0..<12 {
            let split = [nil, true, false][Int.random(in: 0...2, using: &random)]
            let index = try Index.open(gitdir: gitdir, splitIndex: split)
            for _ in 0..<Int.random(in: 1...20, using: &random) {
                let path = paths.randomElement(using: &random)!
                if Bool.random(using: &random) || staged[path] == nil {
                    let content = Array("{\"round\":\(round)}\n".utf8)
                    var entry = IndexEntry(path: path, id: ObjectID(hashing: content, type: .blob))
                    entry.mtimeSeconds = UInt32.random(in: 0...UInt32.max, using: &random)
                    entry.inode = UInt32.random(in: 0...UInt32.max, using: &random)
                    entry.size = UInt32(content.count)
                    try index.stage(entry)
                    staged[path] = entry
                } else {
                    try index.remove(path: path)
                    staged[path] = nil
                }
            }
            try index.write()
            let expected = staged.values.sorted { $0.pathBytes.lexicographicallyPrecedes($1.pathBytes) }
            #expect(try Index.open(gitdir: gitdir).allEntries() == expected, "seed \(seed), round \(round)")
            let reopened = try Index.open(gitdir: gitdir)
            for path in paths.prefix(10) { #expect(try reopened.entry(for: path) == staged[path]) }
            let listed = try git("-c", "core.quotePath=false", "ls-files", "-s", in: folder).stdout
            #expect(listed == expected.map { "100644 \($0.id.hex) 0\t\($0.path)\n" }.joined(), "seed \(seed), round \(round)")
        }
    }
}
