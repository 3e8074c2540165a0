import CairnTestSupport
import Foundation
import Testing

/// What git did to a store's index before Cairn's next checkpoint, as a user of the store may:
/// nothing, splitting it, making it whole, moving it to version 4, or stashing a document not
/// yet checkpointed and popping it back.
enum IndexRewrite: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case cairnOnly = "Cairn's own index"
    case split = "git update-index --split-index"
    case whole = "git update-index --no-split-index"
    case version4 = "git update-index --index-version 4"
    case stashAndPop = "git stash && git stash pop"

    var testDescription: String { rawValue }

    /// The git commands, each run in the store.
    var commands: [[String]] {
        switch self {
        case .cairnOnly: []
        case .split: [["update-index", "--split-index"]]
        case .whole: [["update-index", "--no-split-index"]]
        case .version4: [["-c", "index.version=4", "update-index", "--index-version", "4"]]
        case .stashAndPop: [["stash"], ["stash", "pop"]]
        }
    }

    /// Runs the commands in `store`, each of which must succeed, and checks that the index is
    /// what they make (so the case tests what it says).
    func apply(to store: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for command in commands {
            let result = try git(command, in: store)
            #expect(result.status == 0, "git \(command.joined(separator: " ")): \(result.stderr)", sourceLocation: sourceLocation)
        }
        let shared = try git(["rev-parse", "--shared-index-path"], in: store).stdout
        switch self {
        case .split:
            #expect(!shared.isEmpty, "git split the index", sourceLocation: sourceLocation)
        case .whole:
            #expect(shared.isEmpty, "git made the index whole: \(shared)", sourceLocation: sourceLocation)
        case .version4:
            let header = try Data(contentsOf: URL(fileURLWithPath: store + "/.git/index")).prefix(8)
            #expect(Array(header) == Array("DIRC".utf8) + [0, 0, 0, 4], "git wrote an index of version 4", sourceLocation: sourceLocation)
        case .cairnOnly, .stashAndPop:
            break
        }
    }

    private func git(_ arguments: [String], in store: String) throws -> ProcessResult {
        try runProcess("/usr/bin/git", ["-C", store] + arguments)
    }
}
