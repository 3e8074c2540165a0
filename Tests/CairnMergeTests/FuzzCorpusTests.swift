import CairnFuzzing
import Foundation
import Testing

/// Every committed seed of every fuzz target (`Tests/Fuzz/Corpus/<target>/`) replayed through
/// its target: the inputs that once broke an invariant stay fixed, and the targets' checks
/// hold on every seed. A broken invariant stops the test process with its description.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// The seeds of one target, by file name.
    static func seeds(_ target: FuzzTarget) throws -> [(String, [UInt8])] {
        let folder = corpus.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            (name, Array(try Data(contentsOf: folder.appendingPathComponent(name))))
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everySeedPasses(_ target: FuzzTarget) throws {
        let seeds = try Self.seeds(target)
        #expect(seeds.count >= 7, "\(target.rawValue) has \(seeds.count) seeds")
        for (_, bytes) in seeds { target.run(bytes) }
    }

    @Test func everyCorpusFolderIsATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(folders == FuzzTarget.allCases.map(\.rawValue).sorted())
    }

    @Test func everyMergeTargetChecksItsPolicy() {
        for target in FuzzTarget.allCases {
            let isMerge = ![.json, .paths, .storeTree, .schemaSet].contains(target)
            #expect(target.policies.isEmpty != isMerge, "\(target.rawValue)")
        }
    }
}
