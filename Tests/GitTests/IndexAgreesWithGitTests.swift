import CairnMerge
import CairnTestSupport
import Foundation
import GitFormat
import Testing

@testable import Git

/// Cairn's own index code against git's: random runs of Cairn's checkpoints and git commands
/// that rewrite the index (split and whole, version 4, stash, hand commits, `rm --cached`
/// then `add`). After every step both read the same entries, each path once, and after each
/// of Cairn's commits `git status` is clean and `git fsck --strict` passes.
@Suite struct IndexAgreesWithGitTests {
    let temporary = TemporaryFolder("cairn-index-git")
    let someone = Signature(name: "Test", email: "test@example.invalid", time: 1_730_000_000)

    static let gitSteps: [[String]] = [
        ["update-index", "--split-index"], ["update-index", "--no-split-index"],
        ["update-index", "--index-version", "4"], ["update-index", "--index-version", "2"],
        ["update-index", "--index-version", "3"], ["stash"], ["rm", "--cached"], ["commit"],
    ]

    @Test(arguments: 1...24)
    func cairnAndGitReadTheSameIndex(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        let splitIndex: Bool? = [nil, true, false][seed % 3]
        let play = try IndexTests.Playground(temporary.path + "/r\(seed)", someone: someone, splitIndex: splitIndex)
        let paths = (0..<40).map { "users/u1/c\($0 % 4)/d\($0).json" }
        var log: [String] = []
        try play.commit(writing: Dictionary(uniqueKeysWithValues: paths.prefix(20).map { ($0, "{\"v\":0}\n") }))
        for step in 0..<14 {
            var files: [String: String] = [:]
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                files[paths.randomElement(using: &random)!] = "{\"v\":\(step)}\n"
            }
            let tracked = try play.git("ls-files").stdout.split(separator: "\n").map(String.init)
            let deleting = tracked.filter { $0.hasPrefix("users/") && files[$0] == nil }.shuffled(using: &random).prefix(1)
            try play.commit(writing: files, deleting: Array(deleting))
            log.append("cairn: write \(files.keys.sorted()), delete \(Array(deleting))")
            try expectAgreement(play, seed: seed, log: log)
            try play.expectClean()
            #expect(try play.git("fsck", "--strict").status == 0, "seed \(seed): \(log)")

            let command = Self.gitSteps.randomElement(using: &random)!
            let now = try play.git("ls-files").stdout.split(separator: "\n").map(String.init)
            let target = now.filter { $0.hasPrefix("users/") }.randomElement(using: &random) ?? paths[0]
            switch command[0] {
            case "stash":
                try "{\"stashed\":\(step)}\n".write(toFile: play.root + "/" + target, atomically: false, encoding: .utf8)
                #expect(try play.git("stash").status == 0)
                #expect(try play.git("stash", "pop").status == 0)
                try play.commit(writing: [target: "{\"stashed\":\(step)}\n"])
            case "rm":
                #expect(try play.git("rm", "-q", "--cached", target).status == 0)
                #expect(try play.git("add", target).status == 0)
            case "commit":
                try "{\"hand\":\(step)}\n".write(toFile: play.root + "/" + target, atomically: false, encoding: .utf8)
                #expect(try play.git("add", target).status == 0)
                #expect(try play.git("-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "hand").status == 0)
                play.head = ObjectID(hex: try play.git("rev-parse", "HEAD").stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            default:
                let result = try runProcess("/usr/bin/git", ["-C", play.root] + command)
                #expect(result.status == 0, "\(command): \(result.stderr)")
            }
            log.append("git \(command.joined(separator: " ")) \(target)")
            try expectAgreement(play, seed: seed, log: log)
        }
    }

    /// Cairn reads what git reads: the same paths, blobs and stages, each path once.
    func expectAgreement(
        _ play: IndexTests.Playground, seed: Int, log: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let listed = try play.git("ls-files", "-s").stdout.split(separator: "\n").map { line -> String in
            let fields = line.split(separator: "\t", maxSplits: 1)
            let left = fields[0].split(separator: " ")
            return "\(fields[1]) \(left[1]) \(left[2])"
        }
        let cairn = try play.openIndex().allEntries().map { "\($0.path) \($0.id.hex) \($0.stage)" }
        #expect(cairn == listed, "seed \(seed), after \(log)", sourceLocation: sourceLocation)
        let names = cairn.map { $0.split(separator: " ")[0] }
        #expect(Set(names).count == names.count, "a path twice; seed \(seed), after \(log)", sourceLocation: sourceLocation)
    }
}
